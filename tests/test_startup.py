"""Start-up: each command imports what it runs when it runs (issue 34). Every command's --help in a
fresh process, as a user starts it, still works; --version and the top-level --help import
neither the pipeline nor the libraries only a build needs. (How fast is bench/'s business.)"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
import typer

from qti_builder.cli import app

ROOT_COMMAND = typer.main.get_command(app)


def _command_lines() -> list[list[str]]:
    lines: list[list[str]] = [[]]
    for name, command in ROOT_COMMAND.commands.items():  # type: ignore[attr-defined]
        lines.append([name])
        for sub in getattr(command, "commands", {}):
            lines.append([name, sub])
    return lines


#: Modules a build needs and --version does not: the pipeline, the model's pydantic, lxml, Jinja.
HEAVY = ("qti_builder.pipeline", "qti_builder.model", "qti_builder.readers.registry", "qti_builder.writers.base",
         "pydantic", "lxml.etree", "jinja2", "markdown_it")


def _modules_after(*args: str) -> tuple[int, str, list[str]]:
    """Run the command line in a fresh interpreter; its exit code, its output, and which of HEAVY it imported."""
    script = (
        "import sys, json\n"
        "from qti_builder.cli import app\n"
        "try:\n"
        f"    app({list(args)!r})\n"
        "except SystemExit as exc:\n"
        "    code = exc.code or 0\n"
        "else:\n"
        "    code = 0\n"
        f"print(json.dumps([code, [m for m in {list(HEAVY)!r} if m in sys.modules]]), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    code, imported = json.loads(done.stderr.strip().splitlines()[-1])
    return code, done.stdout, imported


@pytest.mark.parametrize("command", _command_lines(), ids=lambda c: " ".join(c) or "qti-builder")
def test_every_help_works_in_a_fresh_process(command: list[str]) -> None:
    """Each command's --help as a user types it (the project commands skip the settings file when
    asked for help: ``cli._project_defaults`` reads the command line), imports nothing a build
    needs: not the pipeline, the model, nor pydantic, which typer 0.29 imports to coerce every
    option (hence its pin in pyproject.toml). ``-X importtime`` lists every module imported."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "qti_builder", *command, "--help"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Usage: ") and "Traceback" not in done.stderr
    if command:
        assert f" {command[-1]} " in done.stdout.splitlines()[0] + " "
    imported = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "qti_builder.cli" in imported  # the listing is there to look at
    assert not set(HEAVY) & imported


def test_version_imports_no_pipeline() -> None:
    code, out, imported = _modules_after("--version")
    assert code == 0 and out.startswith("qti-builder ")
    assert imported == []


def test_top_help_imports_no_pipeline() -> None:
    code, out, imported = _modules_after("--help")
    assert code == 0 and "build" in out and "check" in out
    assert imported == []


def test_explain_and_docs_import_no_pipeline() -> None:
    """Commands that need neither the model nor the build (``docs`` renders its page with markdown-it)."""
    for args in (("explain", "QB142"), ("docs", "ci")):
        code, out, imported = _modules_after(*args)
        assert code == 0 and out.strip()
        assert not (set(HEAVY) - {"markdown_it"}) & set(imported), args


def test_the_lazy_names_are_the_real_ones() -> None:
    """The names the packages give lazily are the objects their modules define."""
    import qti_builder
    from qti_builder import pipeline, readers, writers
    from qti_builder.readers import registry

    assert qti_builder.build is pipeline.build and qti_builder.BuildOptions is pipeline.BuildOptions
    assert readers.read_quiz is registry.read_quiz and readers.SOURCE_SUFFIXES == registry.SOURCE_SUFFIXES
    assert list(writers.WRITERS) == ["qti21", "moodle", "canvas", "moodle-quiz"]
    assert all(writers.WRITERS[name].name == name for name in writers.WRITERS)
    with pytest.raises(AttributeError, match=r"module 'qti_builder\.writers' has no attribute 'NoSuchWriter'"):
        writers.NoSuchWriter  # noqa: B018


def test_check_of_unchanged_sources_imports_no_pipeline() -> None:
    """With every quiz in the build cache (conftest.py gives each test its own), ``check`` prints
    what it printed the first time without the pipeline, the schemas or the templates."""
    from helpers import SEED_SOURCE

    first = _modules_after("check", str(SEED_SOURCE), "--lang", "en")
    again = _modules_after("check", str(SEED_SOURCE), "--lang", "en")
    assert first[0] == again[0] == 0 and first[1] == again[1] and "valid" in again[1]
    assert "qti_builder.pipeline" in first[2]
    assert not {"qti_builder.pipeline", "qti_builder.writers.base", "lxml.etree", "jinja2"} & set(again[2])


def test_build_of_unchanged_sources_writes_its_files_without_the_writers(tmp_path: Path) -> None:
    """With every quiz in the build cache, ``build`` writes the files the first build wrote, byte for
    byte, without the pipeline, the writers (whose module imports Jinja and the model) or lxml:
    the files are written by ``staging``, not ``package``, which puts packages together."""
    from helpers import SEED_SOURCE

    out = tmp_path
    first = _modules_after("build", str(SEED_SOURCE), "--out", str(out / "first"))
    again = _modules_after("build", str(SEED_SOURCE), "--out", str(out / "again"))
    assert first[0] == again[0] == 0
    assert "qti_builder.pipeline" in first[2]
    assert not {"qti_builder.pipeline", "qti_builder.writers.base", "lxml.etree", "jinja2"} & set(again[2])
    written = {p.name: p.read_bytes() for p in (out / "first").iterdir()}
    assert written and written == {p.name: p.read_bytes() for p in (out / "again").iterdir()}


def test_check_of_unchanged_sources_imports_no_model() -> None:
    """With the seed quiz in the build cache and no settings file, ``check`` prints what it printed
    the first time (the quiz's questions by type, its points) without pydantic, the quiz's model
    or the Markdown reader: the cache's entry keeps what the command line prints of the quiz
    beside the quiz's model, which is unpickled only when asked for (``--verbose``, a report)."""
    from helpers import SEED_SOURCE

    first = _modules_after("check", str(SEED_SOURCE))
    again = _modules_after("check", str(SEED_SOURCE))
    assert first[0] == again[0] == 0 and first[1] == again[1]
    # in the quiz's language, Korean, as a cold check says it
    assert "ray-train-tune: 10문항: 단일 선택 8, 서술형 2" in again[1] and "(10점)" in again[1]
    assert "pydantic" in first[2]
    assert again[2] == []


def test_check_without_a_settings_file_skips_the_settings_model(tmp_path: Path) -> None:
    """Where no settings file applies, ``check`` does not import the settings' pydantic model
    (project.py) to find that out; with one, it reads it as ever (test_project.py)."""
    from helpers import SEED_SOURCE

    script = ("import sys\nfrom qti_builder.cli import app\ntry:\n"
              f"    app(['check', {str(SEED_SOURCE)!r}, '--no-cache', '--quiet'])\n"
              "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
              "print('project' if 'qti_builder.project' in sys.modules else 'none')\n")
    (tmp_path / ".git").mkdir()  # the search for a settings file stops here
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "none"
    (tmp_path / "qti-builder.toml").write_text("strict = true\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split()[-1] == "project"


def test_a_check_to_build_compiles_its_schemas_while_the_pipeline_is_imported(tmp_path: Path) -> None:
    """A quiz not in the cache: the schemas compile on the main thread (which validates with them)
    while another thread imports the pipeline, and once: the pipeline takes the set as compiled.
    Each schema the check's targets need is compiled exactly once, none after the import ended."""
    from helpers import SEED_SOURCE

    script = (
        "import sys, threading, json\n"
        "from qti_builder import schemas\n"
        "seen = []\n"
        "real = schemas.SchemaSet._xsd\n"
        "def recording(self, path):\n"
        "    importing = any(t.name == 'import-pipeline' for t in threading.enumerate())\n"
        "    seen.append([path.name, threading.current_thread() is threading.main_thread(), importing])\n"
        "    return real(self, path)\n"
        "schemas.SchemaSet._xsd = recording\n"
        "from qti_builder.cli import app\n"
        "try:\n"
        f"    app(['check', {str(SEED_SOURCE)!r}, '--no-cache', '--quiet', '--format', 'moodle,canvas'])\n"
        "except SystemExit as exc:\n    assert not exc.code, exc.code\n"
        "print(json.dumps(seen))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    seen = json.loads(done.stdout.splitlines()[-1])
    names = [name for name, _, _ in seen]
    # moodle's own XSD, and canvas's (its DTDs are not XSDs): each once
    assert sorted(names) == sorted(set(names)) and "moodle-xml.xsd" in names and len(names) == 4, seen
    assert all(on_main for _, on_main, _ in seen), seen
    assert seen[0][2], seen  # the first compile began while the pipeline was being imported


def _callbacks(command: object) -> list[object]:
    found = [getattr(command, "callback", None)]
    for sub in getattr(command, "commands", {}).values():
        found += _callbacks(sub)
    return [c for c in found if c is not None]


def test_every_command_signature_is_evaluated_as_its_module_loads() -> None:
    """Typer builds every command from its function's signature at each start (whichever command
    runs) and evaluates a string annotation twice per parameter; cli.py and importers/command.py
    are written without ``from __future__ import annotations`` so that it finds objects there
    (a tenth of the cost, bench/README.md). A command module given the import again fails here."""
    import inspect

    callbacks = _callbacks(ROOT_COMMAND)
    assert len(callbacks) >= 12 and any(c.__module__ == "qti_builder.importers.command" for c in callbacks)  # type: ignore[attr-defined]
    for callback in callbacks:
        strings = {name: hint for name, hint in inspect.get_annotations(callback).items() if isinstance(hint, str)}  # type: ignore[arg-type]
        assert not strings, (callback, strings)


@pytest.mark.parametrize("enabled", [True, False], ids=["collector on", "collector off"])
def test_the_pipeline_is_imported_without_collections_and_the_collector_left_as_it_was(enabled: bool) -> None:
    """The pipeline's import (beside the schemas' compile) runs with the collector off: its objects
    live as long as the process. Then they are frozen, so that the next collection does not walk
    them all, and the collector is as it was: on for a process that runs on (``watch``, ``serve``),
    off if the caller had turned it off."""
    script = (
        "import gc, json, sys\n"
        "from qti_builder import cached_build\n"
        "from qti_builder.results import BuildOptions\n"
        f"{'' if enabled else 'gc.disable()'}\n"
        "started, during = [], [True]\n"
        "gc.callbacks.append(lambda phase, info: started.append(info['generation']) if phase == 'start' and during else None)\n"
        "cached_build._import_pipeline_while_schemas_compile(BuildOptions(formats=['moodle'], write=False))\n"
        "during.clear()\n"
        "young = len(gc.get_objects(0)) + len(gc.get_objects(1))\n"
        "print(json.dumps(['qti_builder.pipeline' in sys.modules, started, gc.isenabled(), young, gc.get_freeze_count()]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    imported, collections, collecting, young, frozen = json.loads(done.stdout.splitlines()[-1])
    assert imported and collections == [] and collecting is enabled
    # what the import made is frozen, not left for the next collection to walk all at once
    assert young < 1000 and frozen > 40_000, (young, frozen)


def test_a_check_imports_the_outline_only_when_asked_for_it(tmp_path: Path) -> None:
    """The outline (outline.py) is imported by ``check --outline`` (and the preview) only; a check
    without it still runs QB219, the stated total against the questions' (totals.py). In a fresh
    process each time, so that nothing else has imported the outline before."""
    from helpers import SEED_SOURCE

    paper = tmp_path / "paper.md"
    paper.write_text(SEED_SOURCE.read_text(encoding="utf-8").replace("language: ko\n", "language: ko\ntotal: 42\n", 1),
                     encoding="utf-8")
    script = (
        "import sys\n"
        "from qti_builder.cli import app\n"
        "try:\n"
        "    app(sys.argv[1:])\n"
        "except SystemExit as exc:\n"
        "    code = exc.code or 0\n"
        "print('outline imported' if 'qti_builder.outline' in sys.modules else 'no outline', code, file=sys.stderr)\n"
    )

    def check(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-c", script, "check", *args, "--no-cache", "--lang", "en"],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path)

    plain = check(str(SEED_SOURCE))
    assert plain.stderr.splitlines()[-1] == "no outline 0", plain.stderr
    outlined = check(str(SEED_SOURCE), "--outline")
    assert outlined.stderr.splitlines()[-1] == "outline imported 0", outlined.stderr
    assert "  1. single choice | answer B | 1 point | lines 11-20" in outlined.stdout
    wrong_total = check(str(paper))
    assert wrong_total.stderr.splitlines()[-1] == "no outline 1", wrong_total.stderr
    assert "error[QB219]: the paper says total 42, its questions add up to 10 points" in wrong_total.stdout + wrong_total.stderr


def _check_in_a_fresh_process(source: Path, modules: tuple[str, ...], *options: str) -> tuple[list[str], int, str]:
    """``check source --no-cache [options]`` in a fresh interpreter: which of ``modules`` it
    imported, its exit code and what it printed (both streams)."""
    from helpers import ROOT

    script = (
        "import json, sys\n"
        "from qti_builder.cli import app\n"
        "try:\n"
        "    app(sys.argv[1:])\n"
        "except SystemExit as exc:\n"
        "    code = exc.code or 0\n"
        f"print(json.dumps([[m for m in {list(modules)!r} if m in sys.modules], code]), file=sys.stderr)\n"
    )
    done = subprocess.run([sys.executable, "-c", script, "check", str(source), "--no-cache", "--lang", "en", *options],
                          capture_output=True, text=True, timeout=300, cwd=ROOT)
    imported, code = json.loads(done.stderr.strip().splitlines()[-1])
    return imported, code, done.stdout + done.stderr


def test_a_check_imports_a_kind_s_reader_and_writers_only_for_a_quiz_that_has_the_kind() -> None:
    """The kinds' tables (kinds.KindTable) make a kind's entry when the kind is first asked for: a
    check of the seed quiz, which has no calculated question, imports neither the calculated kinds'
    Markdown reader nor their Canvas and Moodle writers; a quiz with calculated questions imports
    them, and is checked as before. In a fresh process each time."""
    from helpers import ROOT, SEED_SOURCE

    calculated = ("qti_builder.readers.markdown.calculated", "qti_builder.writers.canvas_calculated",
                  "qti_builder.writers.moodle_calculated")
    assert _check_in_a_fresh_process(SEED_SOURCE, calculated)[:2] == ([], 0)
    imported, code, output = _check_in_a_fresh_process(ROOT / "tests" / "fixtures" / "calculated.md", calculated)
    assert (imported, code) == (list(calculated), 0)
    assert "ok: 1 quiz, 7 questions (7 points), 4 outputs valid" in output, output


def test_a_check_that_forks_no_worker_does_not_import_multiprocessing() -> None:
    """Whether workers could be forked (parallel.forks) is asked of ``os``: a check of a small quiz
    allowed two processes, which runs everything in its own, imports no multiprocessing."""
    from helpers import SEED_SOURCE

    assert _check_in_a_fresh_process(SEED_SOURCE, ("multiprocessing",), "--jobs", "2")[:2] == ([], 0)


def test_a_check_imports_the_table_of_codes_only_to_look_a_code_up(tmp_path: Path) -> None:
    """The table of every code (codes.py) is imported where a code is looked up: a check of the
    seed, without ``--ignore`` and without a question's ``ignore=``, does not import it; a question's
    ``ignore=`` that names a warning is taken, one that names an error is refused (QB206)."""
    from helpers import SEED_SOURCE

    assert _check_in_a_fresh_process(SEED_SOURCE, ("qti_builder.codes",))[:2] == ([], 0)
    text = SEED_SOURCE.read_text(encoding="utf-8")
    assert "{#train-purpose}" in text
    for ignored, code in (("QB601", 0), ("QB401", 1)):
        paper = tmp_path / f"paper-{ignored}.md"
        paper.write_text(text.replace("{#train-purpose}", f"{{#train-purpose ignore={ignored}}}", 1), encoding="utf-8")
        assert _check_in_a_fresh_process(paper, ("qti_builder.codes",))[:2] == (["qti_builder.codes"], code)
    output = _check_in_a_fresh_process(paper, ())[2]
    assert "error[QB206]: ignore=QB401 on question 'train-purpose' is an error, and errors cannot be ignored" in output, output


def test_a_check_of_plain_lines_imports_no_markdown_parser(tmp_path: Path) -> None:
    """Markdown's parser (markdown-it, its math plugins) and the sanitiser (nh3) are imported when a
    text first needs them (content._md): a quiz whose every text is a plain line, as the plain
    benchmark bank's, renders, checks and validates without them; the seed quiz, which has
    Markdown, imports them and is checked as before. In a fresh process each time."""
    from helpers import SEED_SOURCE

    parser = ("markdown_it", "mdit_py_plugins.dollarmath", "mdit_py_plugins.texmath", "nh3")
    paper = tmp_path / "plain.md"
    paper.write_text(
        "---\nid: plain-lines\ntitle: Plain lines\nlanguage: ko\n---\n\n# Part 1 {#part-1}\n\n"
        "1. What happens to the actor when the batch fails? {#q00000}\n\n"
        "A) The placement group\nB) The trainer\nC) The worker\n\nAnswer: C\n"
        "Explanation: actor / batch: see the user guide.\n\n"
        "2. 워커가 실패하면 에폭에는 어떤 일이 일어나나요? {#q00001}\n\n"
        "A) 스케줄러입니다\nB) 에폭입니다\n\nAnswer: B\nExplanation: 에폭 / 워커: 설명입니다.\n",
        encoding="utf-8")
    imported, code, output = _check_in_a_fresh_process(paper, parser)
    assert (imported, code) == ([], 0), output
    assert "ok: 1 quiz, 2 questions (2 points)" in output, output
    imported, code, output = _check_in_a_fresh_process(SEED_SOURCE, parser)
    assert (imported, code) == (list(parser), 0), output


def test_a_plain_line_renders_without_the_markdown_parser_which_is_made_once() -> None:
    """A plain line rendered (``content.render_block``, and ``render_plain``, which goes through the
    sanitiser's own shortcut for it) neither makes Markdown's parser nor imports it or the
    sanitiser (mutant: the parser made before the sanitiser's shortcut); a text with Markdown
    makes it once, and every later text takes the same one (mutant: a parser made for each text).
    In a fresh process."""
    parser = ("markdown_it", "mdit_py_plugins.dollarmath", "mdit_py_plugins.texmath", "nh3")
    script = (
        "import sys, json\n"
        "from qti_builder import content\n"
        "line = 'What happens to the actor when the batch fails?'\n"
        "plain = content.render_block(line) + content.render_plain(line)\n"
        f"before = [m for m in {list(parser)!r} if m in sys.modules]\n"
        "bold = content.render_block('What is **bold**?')\n"
        f"after = [m for m in {list(parser)!r} if m in sys.modules]\n"
        "print(json.dumps([plain, before, bold, after, content._md() is content._md()]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120)
    plain, before, bold, after, same = json.loads(done.stdout.strip().splitlines()[-1])
    assert "What happens to the actor when the batch fails?" in plain and before == []
    assert "<strong>bold</strong>" in bold and after == list(parser) and same
