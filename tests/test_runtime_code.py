"""The dataclasses' methods, typing's forward references and the regular expressions compiled
once and kept across runs (``runtime_code.compiled_once``, which the command line's process runs
under): the same classes, references and patterns as without it, the texts read from the file in
the next run and not compiled again, a damaged file ignored and written anew."""

from __future__ import annotations

import dataclasses
import inspect
import json
import marshal
import os
import re
import subprocess
import sys
import typing
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from helpers import SEED_SOURCE

from qti_builder import runtime_code
from qti_builder.runtime_code import MAGIC, code_file, compiled_once

#: The user's cache folder, where the stand-ins' file and the record live: each test's own.
pytestmark = pytest.mark.usefixtures("user_cache")


@pytest.fixture
def compiled(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts the stand-in compiles (rather than taking from the file)."""
    texts: list[str] = []

    def counting(text: str, *args: Any, **kwargs: Any) -> Any:
        texts.append(text)
        return compile(text, *args, **kwargs)

    monkeypatch.setattr(runtime_code, "compile", counting, raising=False)
    return texts


def make_classes() -> list[type]:
    """Dataclasses of every kind of method ``dataclasses`` writes."""

    @dataclasses.dataclass
    class Plain:
        a: int
        b: list[str] = dataclasses.field(default_factory=list)
        c: str = "c"

    @dataclasses.dataclass(frozen=True, order=True)
    class Frozen:
        x: int
        y: tuple[int, ...] = ()

    @dataclasses.dataclass(kw_only=True, slots=True, eq=False)
    class Slots:
        name: str
        size: int = 0

    @dataclasses.dataclass
    class Later:
        a: int
        b: int = dataclasses.field(init=False, default=3)

        def __post_init__(self) -> None:
            self.b = self.a * 2

    return [Plain, Frozen, Slots, Later]


def behaviour(classes: list[type]) -> list[Any]:
    """What the classes' generated methods do, and how they are written."""
    plain, frozen, slots, later = classes
    p, q = plain(1), plain(1, ["x"])
    f, g = frozen(1, (2,)), frozen(2)
    s = slots(name="n")
    seen: list[Any] = [repr(p), repr(q), p == plain(1), p == q, p.b is not plain(1).b, repr(f), f == frozen(1, (2,)),
                       hash(f) == hash(frozen(1, (2,))), f < g, sorted([g, f]) == [f, g], repr(s), s == slots(name="n"),
                       repr(later(4)), later(4).b]
    with pytest.raises(dataclasses.FrozenInstanceError):
        f.x = 3  # type: ignore[misc]
    with pytest.raises(TypeError):
        slots("n")  # type: ignore[misc]
    for cls in classes:
        seen.append(str(inspect.signature(cls)))
        for name in ("__init__", "__repr__", "__eq__", "__hash__", "__setattr__", "__delattr__", "__lt__"):
            method = vars(cls).get(name)
            code = getattr(method, "__code__", None) or getattr(getattr(method, "__wrapped__", None), "__code__", None)
            if code is not None:
                seen.append((name, method.__qualname__, code.co_filename, code.co_code, code.co_names, code.co_varnames,
                             code.co_consts, code.co_flags))
    return seen


def test_the_classes_made_under_it_are_the_classes_made_without_it(compiled: list[str]) -> None:
    without = behaviour(make_classes())
    with compiled_once():
        first = behaviour(make_classes())
    assert compiled and first == without
    compiled.clear()
    with compiled_once():
        again = behaviour(make_classes())
    assert compiled == [] and again == without  # every method's code from the file


def test_the_file_holds_each_text_compiled_and_is_keyed_by_the_interpreter(compiled: list[str]) -> None:
    with compiled_once():
        make_classes()
    path = code_file()
    assert path.parent == Path(os.environ["XDG_CACHE_HOME"]) / "qti-builder" and sys.implementation.cache_tag in path.name
    data = path.read_bytes()
    assert data.startswith(MAGIC)
    codes = marshal.loads(data[len(MAGIC):])
    assert sorted(text for _, text in codes) == sorted(compiled)
    assert all(mode == "exec" and text.startswith("def __create_fn__(") for mode, text in codes)


@pytest.mark.parametrize("damage", [
    b"", b"garbage", MAGIC, MAGIC + b"\xff\x00garbage", MAGIC + marshal.dumps([1, 2]), b"x" + MAGIC[1:] + marshal.dumps({}),
])
def test_a_damaged_file_is_ignored_and_written_anew(compiled: list[str], damage: bytes) -> None:
    code_file().parent.mkdir(parents=True, exist_ok=True)
    code_file().write_bytes(damage)
    with compiled_once():
        made = behaviour(make_classes())
    assert compiled and made == behaviour(make_classes())
    assert sorted(text for _, text in marshal.loads(code_file().read_bytes()[len(MAGIC):])) == sorted(compiled)


def test_an_entry_that_is_not_code_is_compiled_anew(compiled: list[str]) -> None:
    with compiled_once():
        make_classes()
    texts = sorted(compiled)
    code_file().write_bytes(MAGIC + marshal.dumps(dict.fromkeys([("exec", text) for text in texts], "not code")))
    compiled.clear()
    with compiled_once():
        made = behaviour(make_classes())
    assert sorted(compiled) == texts and made == behaviour(make_classes())


def test_the_stand_in_is_there_only_while_it_lasts_and_a_nested_one_leaves_it(compiled: list[str]) -> None:
    assert "exec" not in vars(dataclasses) and "compile" not in vars(typing)
    with pytest.raises(RuntimeError), compiled_once():
        stand_ins: list[Callable[..., Any]] = [vars(dataclasses)["exec"], vars(typing)["compile"]]
        with compiled_once():
            assert [vars(dataclasses)["exec"], vars(typing)["compile"]] == stand_ins
        assert [vars(dataclasses)["exec"], vars(typing)["compile"]] == stand_ins
        make_classes()
        raise RuntimeError
    assert "exec" not in vars(dataclasses) and "compile" not in vars(typing)
    assert code_file().is_file()  # written on the way out all the same


def test_a_second_check_compiles_none_of_the_texts_the_first_kept(tmp_path: Path) -> None:
    """The command line as a user starts it (``cli.run``), twice in fresh processes: the first
    compiles the methods of every dataclass, the forward references and the regular expressions
    its run made, and keeps them, the second compiles none, and says the same."""
    script = (
        "import atexit, sys\n"
        "from qti_builder import runtime_code\n"
        "texts = []\n"
        "runtime_code.compile = lambda text, *a, **k: texts.append(text) or compile(text, *a, **k)\n"
        "class Recorder(runtime_code._SreRecorder):\n"
        "    def __init__(self, sre):\n"
        "        texts.append(sre)\n"
        "        super().__init__(sre)\n"
        "runtime_code._SreRecorder = Recorder\n"
        "atexit.register(lambda: print('compiled', len(texts), file=sys.stderr))\n"
        "from qti_builder.cli import run\n"
        f"sys.argv = ['qti-builder', 'check', {str(SEED_SOURCE)!r}, '--no-cache', '--report', 'json']\n"
        "run()\n"
    )
    # One hash seed for both: markdown-it builds a pattern from a set, whose order is the seed's
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONHASHSEED": "1"}
    runs = [subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env) for _ in range(2)]
    assert [r.returncode for r in runs] == [0, 0], runs[0].stderr
    counts = [int(r.stderr.strip().splitlines()[-1].split()[-1]) for r in runs]
    assert counts[0] > 300 and counts[1] == 0
    def untimed(report: Any) -> Any:
        if isinstance(report, dict):
            return {key: untimed(value) for key, value in report.items() if key != "timings"}
        return [untimed(item) for item in report] if isinstance(report, list) else report

    assert untimed(json.loads(runs[0].stdout)) == untimed(json.loads(runs[1].stdout))


def forward_references() -> list[Any]:
    """What typing's forward references compile, and what they evaluate to."""
    seen: list[Any] = []
    for text in ("int", "list[str]", "dict[str, list[int | None]]", "*tuple[int, ...]"):
        ref = typing.ForwardRef(text)
        code = ref.__forward_code__
        seen.append((text, code.co_code, code.co_names, code.co_consts, code.co_filename, code.co_flags,
                     typing.get_type_hints(type("C", (), {"__annotations__": {"x": text}}))["x"] if not text.startswith("*") else None))
    with pytest.raises(SyntaxError, match=re.escape("Forward reference must be an expression -- got '1 +'")):
        typing.ForwardRef("1 +")
    return seen


def test_forward_references_made_under_it_are_those_made_without_it(compiled: list[str]) -> None:
    without = forward_references()
    with compiled_once():
        first = forward_references()
    assert "list[str]" in compiled and first == without
    compiled.clear()
    with compiled_once():
        again = forward_references()
    assert compiled == ["1 +"] and again == without  # a text that does not compile is not kept


@pytest.fixture
def patterns_compiled(monkeypatch: pytest.MonkeyPatch) -> list[str | bytes]:
    """The patterns the stand-in compiles (rather than making from the file)."""
    seen: list[str | bytes] = []

    class Recorder(runtime_code._SreRecorder):
        def compile(self, *args: Any) -> Any:
            seen.append(args[0])
            return super().compile(*args)

    monkeypatch.setattr(runtime_code, "_SreRecorder", Recorder)
    return seen


PATTERNS: list[tuple[str | bytes, int]] = [
    (r"a(?P<x>b)+c(?P=x)?", 0), (r"\s*[(（\[［]\s*(?:[OoＯ○◯]\s*[,/·ㆍ|]?\s*[XxＸ×✕]|참\s*[,/]\s*거짓)?\s*[)\]）］]\s*$", 0),
    (rb"<!-- question: ([0-9]+) -->\n", 0), (r"^\s*#+ (.*)$", re.M), (r"a b # a comment", re.X), (r"straße|ǅ", re.I),
    (r"\w+\b", re.A), (r"(?i)abc(?-i:D)", 0), (r"(?<=a)b(?!c)", re.S), (r"(a)|(b)|(?:c{2,5}?)", 0), (r"[^\W\d_]+", re.I | re.M),
]


def patterns() -> list[re.Pattern[Any]]:
    re.purge()  # re's own cache of the process: every pattern compiled again
    return [re.compile(pattern, flags) for pattern, flags in PATTERNS]


def described(made: list[re.Pattern[Any]]) -> list[Any]:
    return [(p.pattern, p.flags, p.groups, dict(p.groupindex), [bool(p.search(s)) for s in ("abc", "ABCD", "aab", "  (O/X)", "# t")]
             if isinstance(p.pattern, str) else p.findall(b"<!-- question: 7 -->\n")) for p in made]


def test_patterns_made_under_it_are_the_patterns_re_makes(patterns_compiled: list[str | bytes]) -> None:
    """A pattern is equal to another when their flags, their text and their compiled code are."""
    without = patterns()
    with compiled_once():
        first = patterns()
    assert sorted(map(repr, patterns_compiled)) == sorted(repr(p) for p, _ in PATTERNS)
    patterns_compiled.clear()
    with compiled_once():
        again = patterns()
    assert patterns_compiled == []  # each made of the parts in the file
    assert first == without and again == without and described(again) == described(without)


def test_the_project_s_own_patterns_made_from_the_file_are_the_same(patterns_compiled: list[str | bytes]) -> None:
    from qti_builder import pipeline
    from qti_builder.readers.markdown import syntax

    made = [value for module in list(sys.modules.values()) if getattr(module, "__name__", "").startswith("qti_builder")
            for value in vars(module).values() if isinstance(value, re.Pattern)]
    assert len(made) > 100 and any(vars(syntax).values()) and pipeline
    for _ in range(2):
        re.purge()
        with compiled_once():
            again = [re.compile(p.pattern, p.flags) for p in made]
        assert again == made
    assert len(patterns_compiled) <= len(made)  # the second time, none


@pytest.mark.parametrize("parts", [
    (32, [1, 2, 3], 0, {}, (None,)), (32, "code", 0, {}, (None,)), (32, [], 0, {}, (None,)), ("x", [1], 0, {}, ()), (32,), None,
])
def test_a_damaged_pattern_entry_is_compiled_anew(patterns_compiled: list[str | bytes], parts: Any) -> None:
    code_file().parent.mkdir(parents=True, exist_ok=True)
    code_file().write_bytes(MAGIC + marshal.dumps({("re", pattern, int(flags)): parts for pattern, flags in PATTERNS}))
    without = patterns()
    with compiled_once():
        made = patterns()
    assert made == without and len(patterns_compiled) == len(PATTERNS)
    patterns_compiled.clear()
    with compiled_once():
        assert patterns() == without
    assert patterns_compiled == []


def test_what_is_not_a_pattern_s_text_is_compiled_as_ever(patterns_compiled: list[str | bytes]) -> None:
    import io
    from contextlib import redirect_stdout

    re.purge()
    with compiled_once(), redirect_stdout(io.StringIO()) as printed:
        debugged = re.compile("ab+", re.DEBUG)  # prints its code, at every compile
        scanner = re.Scanner([(r"\d+", lambda s, t: int(t)), (r"\s+", None)])  # re compiles its parsed patterns
    assert "LITERAL 97" in printed.getvalue() and debugged.match("abb")
    assert scanner.scan("12 34") == ([12, 34], "") and patterns_compiled == []
    import _sre

    assert sys.modules["re._compiler"]._sre is _sre and sys.modules["re._compiler"].compile.__module__ == "re._compiler"


def test_the_file_keeps_what_the_run_used_and_a_few_texts_it_did_not(monkeypatch: pytest.MonkeyPatch) -> None:
    """A text that differs at every run (markdown-it's pattern built from a set) would otherwise
    grow the file by one at every run."""
    monkeypatch.setattr(runtime_code, "SPARE", 2)
    for i in range(5):
        re.purge()  # as a fresh process has it
        with compiled_once():
            re.compile(f"changing {i}")
            re.compile("the same")
    kept = marshal.loads(code_file().read_bytes()[len(MAGIC):])
    assert sorted(key[1] for key in kept if key[0] == "re") == ["changing 2", "changing 3", "changing 4", "the same"]


def test_a_pattern_the_file_holds_under_another_text_does_not_write_the_file_again() -> None:
    """markdown-it builds a pattern from a set, in the set's order (the hash seed's): the same
    pattern under another text at every run, which wrote the whole file again at every run."""
    re.purge()
    with compiled_once():
        first = re.compile("[<>=&]")
        re.compile("kept")
    written = code_file().stat()
    for text in ("[&=><]", "[=<&>]"):  # the same set, in other orders
        re.purge()
        with compiled_once():
            made = re.compile(text)
            assert re.compile("kept").match("kept")
        assert made.pattern == text and made.flags == first.flags and [bool(made.match(c)) for c in "<>=&a"] == [True] * 4 + [False]
        assert code_file().stat().st_mtime_ns == written.st_mtime_ns and code_file().stat().st_ino == written.st_ino
    kept = marshal.loads(code_file().read_bytes()[len(MAGIC):])
    assert sorted(key[1] for key in kept if key[0] == "re") == ["[<>=&]", "kept"]
    # Another set (of as many), other flags, a group, the same group named otherwise: each new
    for text, flags in (("[<>=%]", 0), ("[<>=&]", re.I), ("(?P<a>[<>=&])", 0), ("(?P<b>[<>=&])", 0)):
        re.purge()
        with compiled_once():
            re.compile(text, flags)
        kept = marshal.loads(code_file().read_bytes()[len(MAGIC):])
        assert ("re", text, int(flags)) in kept


def test_checks_under_other_hash_seeds_do_not_write_the_file_again(tmp_path: Path) -> None:
    """The command line as a user starts it, in fresh processes of three hash seeds: the first
    writes the file, the others find every pattern in it (markdown-it's under another text)."""
    script = ("import sys\n"
              "from qti_builder.cli import run\n"
              f"sys.argv = ['qti-builder', 'check', {str(SEED_SOURCE)!r}, '--no-cache', '--quiet']\n"
              "run()\n")
    stats = []
    for seed in ("1", "2", "3"):
        env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache"), "PYTHONHASHSEED": seed}
        done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300, env=env)
        assert done.returncode == 0, done.stderr
        stats.append((tmp_path / "cache").glob("qti-builder/runtime-code-*.marshal").__next__().stat())
    assert len({(s.st_mtime_ns, s.st_ino) for s in stats}) == 1


def test_the_file_is_read_with_the_collector_paused_and_what_it_holds_frozen() -> None:
    import gc

    entries = {("re", f"pattern {i}", 0): (0, [17, i, 1], 0, {}, (None,)) for i in range(5000)}
    code_file().parent.mkdir(parents=True, exist_ok=True)
    code_file().write_bytes(MAGIC + marshal.dumps(entries))
    collections: list[int] = []

    def counting(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections.append(info["generation"])

    gc.callbacks.append(counting)
    try:
        assert gc.isenabled()
        before = gc.get_freeze_count()
        read = runtime_code._Compiled._read(code_file())
        frozen = gc.get_freeze_count() - before
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(counting)
        gc.unfreeze()  # this process's objects back in the collector's reach
    assert read == entries
    assert collections == []
    assert frozen >= 5000  # each entry's list at least
