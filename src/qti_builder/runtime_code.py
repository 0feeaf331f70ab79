"""The source text the standard library writes and compiles as a program starts, compiled once
and kept across runs, as ``__pycache__`` keeps a module's code and Jinja's bytecode cache a
template's: the methods ``dataclasses`` writes for each class, and the annotations ``typing``
compiles for each forward reference (``ForwardRef``: pydantic makes one for every field of the
model, whose modules postpone their annotations; about 1,000 in a ``check``, 2 % of it).

Python 3.11 writes every ``__init__``, ``__repr__``, ``__eq__`` (and a frozen class's
``__hash__``, ``__setattr__``, ``__delattr__``) of a dataclass as source text and compiles each
with its own ``exec``: about 700 in a ``check``, 11 % of its instructions, the same text at every
start (bench/README.md, issue 34's fifteenth session). :func:`compiled_once` puts a stand-in for
``exec`` in the ``dataclasses`` module, and one for ``compile`` in ``typing``, while the command
runs: each looks the text up among the code compiled before (a marshal file in the cache folder,
read at the first look-up) and compiles only text it has not seen. The code compiled from a text
is the code ``exec`` or ``compile`` makes of it: the same names, the same file name
(``<string>``), the same mode, the same flags (none: neither module has a future import). The file is keyed by the interpreter's bytecode
(``sys.implementation.cache_tag``, the marshal version) and its optimization level; a file that
cannot be read or is damaged is ignored and written anew; one trusted as ``__pycache__`` is (the
user's own cache folder)."""

from __future__ import annotations

import _thread
import contextlib
import marshal
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from types import CodeType
from typing import Any

#: Starts the file; its number changes with the file's layout.
MAGIC = b"qti-builder runtime code 2\n"
#: Most texts kept: past it, the file keeps only those the last run used.
LIMIT = 4000


def code_file() -> Path:
    """The file of compiled texts: in the build cache's folder when ``QTI_BUILDER_CACHE_DIR``
    moves it (the tests' own), else in the user's cache folder."""
    moved = os.environ.get("QTI_BUILDER_CACHE_DIR")
    if moved:
        folder = Path(moved)
    else:
        from platformdirs import user_cache_dir

        folder = Path(user_cache_dir("qti-builder"))
    tag = f"{sys.implementation.cache_tag}-m{marshal.version}-o{sys.flags.optimize}"
    return folder / f"runtime-code-{tag}.marshal"


class _Compiled:
    """The texts compiled, by mode and text: those read from the file (at the first look-up) and
    those compiled since."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.codes: dict[tuple[str, str], CodeType] | None = None
        self.used: set[tuple[str, str]] = set()
        self.new = 0
        self.lock = _thread.allocate_lock()  # the pipeline is imported on a thread of its own

    def _read(self) -> dict[tuple[str, str], CodeType]:
        try:
            data = self.path.read_bytes()
            if data.startswith(MAGIC):
                codes = marshal.loads(memoryview(data)[len(MAGIC):])
                if isinstance(codes, dict):
                    return codes
        except (OSError, ValueError, EOFError, TypeError):  # none yet, or damaged: compiled anew
            pass
        return {}

    def code(self, text: str, mode: str = "exec") -> CodeType:
        key = (mode, text)
        with self.lock:
            if self.codes is None:
                self.codes = self._read()
            code = self.codes.get(key)
            if type(code) is not CodeType:  # not there, or a damaged entry
                code = self.codes[key] = compile(text, "<string>", mode, dont_inherit=True)
                self.new += 1
            self.used.add(key)
            return code

    def save(self) -> None:
        if not self.new or self.codes is None:
            return
        import tempfile  # not before: --version and --help make no dataclass

        kept = self.codes if len(self.codes) <= LIMIT else {t: self.codes[t] for t in self.used}
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


@contextlib.contextmanager
def compiled_once() -> Iterator[None]:
    """While it lasts, the dataclasses and forward references made take their code from the file,
    which is written at the end when they compiled any text it did not hold. For the command
    line's own process: the stand-ins are in ``dataclasses`` and ``typing`` for every thread.
    ``typing``'s is asked only for what ``ForwardRef`` compiles (an expression from
    ``<string>``); anything else is compiled as ever."""
    import dataclasses
    import typing

    if "exec" in vars(dataclasses) or "compile" in vars(typing):  # someone else's stand-in (or ours, nested): left alone
        yield
        return
    compiled = _Compiled(code_file())

    def exec_compiled(source: Any, globals: Any = None, locals: Any = None, /) -> None:
        if type(source) is str:
            source = compiled.code(source)
        exec(source, globals, locals)  # noqa: S102 -- dataclasses' own exec, of the text dataclasses wrote

    def compile_once(source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
        if type(source) is str and filename == "<string>" and mode == "eval" and not args and not kwargs:
            return compiled.code(source, "eval")
        return compile(source, filename, mode, *args, **kwargs)

    dataclasses.exec = exec_compiled  # type: ignore[attr-defined]
    typing.compile = compile_once  # type: ignore[attr-defined]
    try:
        yield
    finally:
        del dataclasses.exec  # type: ignore[attr-defined]
        del typing.compile  # type: ignore[attr-defined]
        compiled.save()
