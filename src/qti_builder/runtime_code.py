"""What a program's start compiles from text at every run, compiled once and kept across runs,
as ``__pycache__`` keeps a module's code and Jinja's bytecode cache a template's: the methods
``dataclasses`` writes for each class, the annotations ``typing`` compiles for each forward
reference, and the regular expressions the modules compile as they load.

A cold ``check`` (bench/README.md, issue 34's fifteenth session) compiled about 700 dataclass
methods (Python 3.11 writes every ``__init__``, ``__repr__``, ``__eq__``, and a frozen class's
``__hash__``, ``__setattr__``, ``__delattr__``, as text, each compiled by its own ``exec``), 13 %
of its instructions; about 1,000 forward references (pydantic makes one for every field of the
model, whose modules postpone their annotations), 2 %; and 340 regular expressions, 21 %, the
same text every time.

:func:`compiled_once` puts stand-ins in those modules while the command runs: for ``exec`` in
``dataclasses``, ``compile`` in ``typing`` and ``re``'s own compile function (``re._compiler``).
Each looks its text up among what was compiled before (a marshal file in the cache folder, read at
the first look-up) and compiles only what it has not seen. What it gives back is what the call
would have made: the code compiled from the same text, in the same mode, with the same file name
(``<string>``) and flags (none: neither module has a future import); a pattern made by the C
function ``_sre.compile`` from the very arguments ``re`` gave it when it compiled the pattern
(its final flags, its code, its groups), which ``re`` would compute again the same. The file is
keyed by the interpreter's bytecode (``sys.implementation.cache_tag``, the marshal version), the
regular expressions' (``_sre.MAGIC``) and the optimization level; a file that cannot be read, is
damaged, or holds an entry of another shape is ignored (that entry compiled anew) and written
anew; it is trusted as ``__pycache__`` is, as the user's own (and ``_sre`` checks the code it is
given). A pattern's compile-time warnings (a ``FutureWarning`` for a possible nested set) are
given only by the run that compiles it."""

from __future__ import annotations

import _thread
import contextlib
import gc
import marshal
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from types import CodeType
from typing import Any

from .collector import collector_paused

#: Starts the file; its number changes with the file's layout.
MAGIC = b"qti-builder runtime code 3\n"
#: Most texts kept that the run writing the file did not use: those of other commands, and those
#: that are never the same twice (markdown-it builds one pattern from a set, in the set's order,
#: which changes from run to run). The last ones found or made are kept.
SPARE = 200


def code_file(part: str = "") -> Path:
    """The file of compiled texts, in the user's cache folder beside Jinja's compiled templates
    (``XDG_CACHE_HOME`` moves it on Linux); not in the build cache, which ``--no-cache`` leaves
    untouched. ``part``: a file of its own (:data:`START`, what the command line's import
    compiles), else the command's."""
    from platformdirs import user_cache_dir

    folder = Path(user_cache_dir("qti-builder"))
    import _sre

    tag = f"{sys.implementation.cache_tag}-m{marshal.version}-sre{_sre.MAGIC}-o{sys.flags.optimize}"
    return folder / f"runtime-code-{part + '-' if part else ''}{tag}.marshal"


class _Compiled:
    """The texts compiled, by mode and text: those read from the file (at the first look-up) and
    those compiled since."""

    def __init__(self, part: str = "") -> None:
        self.part = part
        #: Found at the first look-up: --version and --help look nothing up, nor import platformdirs
        self.path: Path | None = None
        self.codes: dict[tuple[Any, ...], Any] | None = None
        self.used: set[tuple[Any, ...]] = set()
        self.new = 0
        self.lock = _thread.allocate_lock()  # the pipeline is imported on a thread of its own
        #: While the file's path is found: platformdirs, imported for it, compiles patterns of its own
        self.finding = False
        #: The patterns read from the file, by their flags, length of code and groups (made at the
        #: first pattern the file does not hold: :meth:`_held_under_another_text`)
        self.shapes: dict[tuple[Any, ...], list[tuple[Any, ...]]] | None = None

    def _load(self) -> None:
        """The file read, at the first look-up; meanwhile the stand-ins pass everything through."""
        self.finding = True
        try:
            path = code_file(self.part)
        finally:
            self.finding = False
        codes = self._read(path)
        with self.lock:
            if self.codes is None:  # another thread may have read it meanwhile
                self.path, self.codes = path, codes

    @staticmethod
    def _read(path: Path) -> dict[tuple[Any, ...], Any]:
        """The file's texts. The collector is paused while they are made, and what they are is
        frozen out of its reach (``gc.freeze``): a command's thousand codes and patterns are about
        100,000 objects, none of them garbage, that lived as long as the process, and the young
        collections on the way (eleven in a cold ``check``) and the older ones after walked them
        again and again (the pipeline's build unfreezes everything when it ends)."""
        with collector_paused():
            try:
                data = path.read_bytes()
                if data.startswith(MAGIC):
                    codes = marshal.loads(memoryview(data)[len(MAGIC):])
                    if isinstance(codes, dict):
                        gc.freeze()
                        return codes
            except (OSError, ValueError, EOFError, TypeError):  # none yet, or damaged: compiled anew
                pass
        return {}

    def code(self, text: str, mode: str = "exec") -> CodeType:
        key = (mode, text)
        if self.finding:
            return compile(text, "<string>", mode, dont_inherit=True)
        if self.codes is None:
            self._load()
        with self.lock:
            assert self.codes is not None
            code = self.codes.get(key)
            if type(code) is not CodeType:  # not there, or a damaged entry
                code = self.codes[key] = compile(text, "<string>", mode, dont_inherit=True)
                self.new += 1
            self.used.add(key)
            return code

    def pattern(self, compile_pattern: Callable[[Any, int], Any], pattern: str | bytes, flags: int) -> Any:
        """``re._compiler.compile(pattern, flags)``, by the arguments it gave ``_sre.compile`` the
        last time: the pattern's parts as ``re`` made them (its final flags, its code, its
        groups), of which the C function makes the same pattern at once."""
        import _sre

        key = ("re", pattern, flags)
        if self.finding:
            return compile_pattern(pattern, flags)
        if self.codes is None:
            self._load()
        with self.lock:
            assert self.codes is not None
            parts = self.codes.get(key)
            if type(parts) is tuple and len(parts) == 5 and type(parts[1]) is list:
                try:
                    made = _sre.compile(pattern, *parts)
                    self.used.add(key)
                    return made
                except (TypeError, ValueError, RuntimeError, OverflowError):  # a damaged entry: compiled anew
                    pass
            recorder = _SreRecorder(_sre)
            compiler: Any = sys.modules["re._compiler"]
            compiler._sre = recorder
            try:
                made = compile_pattern(pattern, flags)
            finally:
                compiler._sre = _sre
            args = recorder.args
            if args is not None and args[0] is pattern:
                parts = (int(args[1]), [int(op) for op in args[2]], int(args[3]), dict(args[4]), tuple(args[5]))
                if not self._held_under_another_text(parts):
                    self.codes[key] = parts
                    self.used.add(key)
                    self.new += 1
            return made

    def _held_under_another_text(self, parts: tuple[Any, ...]) -> bool:
        """Whether the file holds a pattern of the very same parts under another text. markdown-it
        builds a pattern from a set, in the set's order, which the hash seed changes from run to
        run: the same pattern under a new text at every run, so every ``check`` wrote the whole file
        (1.2 MB, 6 ms of its CPU) again for it. Such a text is not kept: compiled at each run, as
        any text the file does not hold."""
        assert self.codes is not None
        if self.shapes is None:
            self.shapes = {}
            for held in self.codes.values():
                if type(held) is tuple and len(held) == 5 and type(held[1]) is list:
                    self.shapes.setdefault((held[0], len(held[1]), held[2]), []).append(held)
        return any(held[1:] == parts[1:] for held in self.shapes.get((parts[0], len(parts[1]), parts[2]), ()))

    def save(self) -> None:
        if not self.new or self.codes is None or self.path is None:
            return
        import tempfile  # not before: --version and --help make no dataclass

        spare = set([key for key in self.codes if key not in self.used][-SPARE:])
        kept = {key: value for key, value in self.codes.items() if key in self.used or key in spare}
        with contextlib.suppress(OSError, ValueError):  # a read-only cache: compiled at every run, as before
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".runtime-code-", suffix=".tmp")
            try:
                with os.fdopen(fd, "wb") as handle:
                    handle.write(MAGIC + marshal.dumps(kept))
                os.replace(temporary, self.path)  # whole or not at all: two runs may write it at once
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(temporary)
                raise


class _SreRecorder:
    """Stands in for ``_sre`` inside ``re._compiler`` while one pattern compiles: what its
    ``compile`` was given, kept (the single pattern it makes: the patterns of one run compile one
    at a time, under :class:`_Compiled`'s lock)."""

    def __init__(self, sre: Any) -> None:
        self.sre = sre
        self.args: tuple[Any, ...] | None = None

    def __getattr__(self, name: str) -> Any:
        return getattr(self.sre, name)

    def compile(self, *args: Any) -> Any:
        self.args = args
        return self.sre.compile(*args)


#: The part of the file (:func:`code_file`) for what the command line's import compiles, before the
#: command runs (:mod:`.entry`): a file of its own, a few dozen texts, so that ``--version`` and
#: ``--help`` read those and not the command's thousand.
START = "start"


@contextlib.contextmanager
def compiled_once(part: str = "") -> Iterator[None]:
    """While it lasts, the dataclasses and forward references made take their code from the file,
    which is written at the end when they compiled any text it did not hold. For the command
    line's own process: the stand-ins are in ``dataclasses`` and ``typing`` for every thread.
    ``typing``'s is asked only for what ``ForwardRef`` compiles (an expression from
    ``<string>``); anything else is compiled as ever. ``part``: which file (:func:`code_file`)."""
    import dataclasses
    import re
    import typing

    compiler: Any = sys.modules["re._compiler"]  # re's own, where re.compile finds the function
    compile_pattern = compiler.compile
    if "exec" in vars(dataclasses) or "compile" in vars(typing) or getattr(compile_pattern, "__module__", None) == __name__:
        yield  # someone else's stand-in (or ours, nested): left alone
        return
    compiled = _Compiled(part)

    def exec_compiled(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if type(source) is str:
            source = compiled.code(source)
        exec(source, globals, locals)  # noqa: S102 -- dataclasses' own exec, of the text dataclasses wrote

    def compile_once(source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
        if type(source) is str and filename == "<string>" and mode == "eval" and not args and not kwargs:
            return compiled.code(source, "eval")
        return compile(source, filename, mode, *args, **kwargs)

    def pattern_once(pattern: Any, flags: int = 0) -> Any:
        if type(pattern) in (str, bytes) and not flags & re.DEBUG:
            return compiled.pattern(compile_pattern, pattern, int(flags))
        return compile_pattern(pattern, flags)

    dataclasses.exec = exec_compiled  # type: ignore[attr-defined]
    typing.compile = compile_once  # type: ignore[attr-defined]
    compiler.compile = pattern_once
    try:
        yield
    finally:
        del dataclasses.exec  # type: ignore[attr-defined]
        del typing.compile  # type: ignore[attr-defined]
        compiler.compile = compile_pattern
        compiled.save()
