"""The project's settings file: ``qti-builder.toml``, or ``[tool.qti-builder]`` in ``pyproject.toml``.

It holds what a course team would otherwise repeat on every command line (the sources, the
formats, the profile, the codes to accept, the schemas, the output folder, the reports, strict),
checked by one pydantic model; a mistake is a located error (``file:line:col``) like a source's.
The command line fills each command's options from it (click's ``default_map``), so a flag given
on the command line always wins over the file.

The file is looked for in the working folder and its parents, up to the root of the Git
repository (a ``.git`` entry) or of the file system; relative paths in it are relative to its own
folder, wherever the command runs.
"""

from __future__ import annotations

import difflib
import os
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError

from .diagnostics import Diagnostic, Severity, SourceSpan, display_path
from .profiles import PROFILES
from .project_file import CONFIG_FILE, PYPROJECT, PYPROJECT_TABLE, find_project
from .writers import WRITERS



def _format(name: str) -> str:
    if name not in WRITERS:
        raise ValueError(f"unknown format '{name}'; choose from {', '.join(WRITERS)}")
    return name


def _code(code: str) -> str:
    from .ignores import parse_codes

    parse_codes([code])  # raises ValueError, naming the code and why
    return code


def _report(item: str) -> str:
    from .console import REPORTS

    name, sep, file = item.partition("=")
    if name.strip() not in REPORTS:
        raise ValueError(f"unknown report '{name.strip()}'; choose from {', '.join(REPORTS)}, each alone or as FORMAT=FILE")
    if sep and not file.strip():
        raise ValueError(f"give the file after '{name.strip()}=', such as {name.strip()}=dist/report.{name.strip()}")
    return item


def _profile(name: str) -> str:
    if name not in PROFILES:
        raise ValueError(f"unknown profile '{name}'; choose from {', '.join(PROFILES)}")
    return name


class ProjectConfig(BaseModel):
    """Every setting the file may hold; each one is the default of the command-line flag of its
    name. Strict: TOML has types, and ``strict = "yes"`` is a mistake, not a yes."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    #: The quiz sources or folders of them (``build``, ``check``, ``preview``, ``serve``, and what
    #: ``diff`` compares of a git revision and now); default source/.
    sources: list[str] | None = Field(default=None, min_length=1)
    #: The outputs ``build`` and ``check`` make: ``--format``.
    formats: list[Annotated[str, AfterValidator(_format)]] | None = Field(default=None, min_length=1)
    #: ``check --profile``.
    profile: Annotated[str, AfterValidator(_profile)] | None = None
    #: Warnings and losses accepted by code: ``--ignore``.
    ignore: list[Annotated[str, AfterValidator(_code)]] | None = None
    #: The official schemas' folder: ``--schemas``.
    schemas: str | None = None
    #: ``build --out`` (``preview`` writes into its ``preview/``).
    out: str | None = None
    #: ``build`` and ``check --report``: each a format, or ``format=FILE``.
    report: list[Annotated[str, AfterValidator(_report)]] | None = None
    #: ``--strict``: warnings and losses fail too.
    strict: bool | None = None


@dataclass(frozen=True)
class Project:
    """A settings file found, and what it says."""

    path: Path
    config: ProjectConfig

    def resolve(self, value: str) -> Path:
        """A path of the file, relative to the file's folder: as the command line takes it."""
        path = Path(value).expanduser()
        return path if path.is_absolute() else Path(os.path.relpath(self.path.parent / path))

    def options(self) -> dict[str, dict[str, Any]]:
        """Each command's option defaults (click's ``default_map``): only what the file sets."""
        c = self.config
        shared: dict[str, Any] = {}
        if c.sources is not None:
            shared["sources"] = [str(self.resolve(s)) for s in c.sources]
        if c.schemas is not None:
            shared["schemas"] = str(self.resolve(c.schemas))
        if c.ignore is not None:
            shared["ignore"] = [",".join(c.ignore)] if c.ignore else []
        made: dict[str, Any] = {}
        if c.formats is not None:
            made["formats"] = ",".join(c.formats)
        if c.strict is not None:
            made["strict"] = c.strict
        if c.report is not None:
            made["report"] = [self._report(item) for item in c.report]
        build = {**shared, **made}
        check = {**shared, **made}
        preview: dict[str, Any] = dict(shared)
        if c.out is not None:
            build["out"] = str(self.resolve(c.out))
            preview["out"] = str(self.resolve(c.out) / "preview")
        if c.profile is not None:
            check["profile"] = c.profile
        diff = {"path": shared["sources"]} if "sources" in shared else {}  # what a revision's side reads
        return {"build": build, "check": check, "preview": preview, "serve": dict(shared), "diff": diff}

    def _report(self, item: str) -> str:
        name, sep, file = item.partition("=")
        return f"{name.strip()}={self.resolve(file.strip())}" if sep and file.strip() else item


class ProjectError(Exception):
    """The settings file has mistakes; ``diagnostics`` locates each."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics


def load_project(path: Path) -> Project:
    """Read and check the settings file; raises :class:`ProjectError` with every mistake located."""
    shown = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ProjectError([Diagnostic(Severity.ERROR, "QB230", f"cannot read the settings file: {exc}", SourceSpan(shown),
                                       hint="save it as UTF-8 text")]) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        where = re.search(r"\(at line (\d+), column (\d+)\)", str(exc))
        message = re.sub(r"\s*\(at (line \d+, column \d+|end of document)\)", "", str(exc)) or "not TOML"
        lines = text.splitlines() or [""]
        span = (SourceSpan(shown, int(where.group(1)), int(where.group(2))) if where
                else SourceSpan(shown, len(lines), len(lines[-1]) + 1))  # at the end of the document
        raise ProjectError([Diagnostic(Severity.ERROR, "QB230", f"the settings file is not valid TOML: {message[0].lower() + message[1:]}",
                                       span, hint="fix the TOML at that place (https://toml.io)")]) from None
    table: Any = data
    prefix: tuple[str, ...] = ()
    if path.name == PYPROJECT:
        prefix = PYPROJECT_TABLE
        for key in PYPROJECT_TABLE:
            table = table.get(key, {}) if isinstance(table, dict) else {}
    if not isinstance(table, dict):
        raise ProjectError([Diagnostic(Severity.ERROR, "QB233", "[tool.qti-builder] must be a table", SourceSpan(shown, 1, 1),
                                       hint="write it as a [tool.qti-builder] table of settings")])
    try:
        config = ProjectConfig.model_validate(table)
    except ValidationError as exc:
        lines = text.splitlines()
        problems = []
        for error in exc.errors():
            loc = tuple(str(part) for part in error["loc"])
            line, column = locate(lines, prefix, loc, key_itself=error["type"] == "extra_forbidden")
            problems.append(Diagnostic(Severity.ERROR, "QB233", _message(error, loc), SourceSpan(shown, line, column),
                                       hint=_hint(error, loc)))
        raise ProjectError(problems) from None
    return Project(path, config)


def _message(error: Any, loc: tuple[str, ...]) -> str:
    if error["type"] == "extra_forbidden":
        return f"unknown setting '{loc[0]}'"
    key = loc[0] + "".join(f"[{part}]" for part in loc[1:])
    text = str(error["msg"]).removeprefix("Value error, ")
    return f"setting {key}: {text[:1].lower() + text[1:]}"


def _hint(error: Any, loc: tuple[str, ...]) -> str:
    known = list(ProjectConfig.model_fields)
    if error["type"] == "extra_forbidden":
        close = difflib.get_close_matches(loc[0], known, n=1)
        return (f"did you mean '{close[0]}'? " if close else "") + f"the settings are {', '.join(known)} (qti-builder docs ci#project-settings)"
    return "each setting takes what its command-line flag takes (qti-builder docs ci#project-settings)"


def locate(lines: list[str], table: tuple[str, ...], loc: tuple[str, ...], key_itself: bool = False) -> tuple[int, int]:
    """Line and column (1-based) of the setting ``loc`` in a TOML text whose settings are in
    ``table`` (``()``: the top level; ``("tool", "qti-builder")``: that table): the value of the
    key (``key_itself``: the key, for an unknown one), or the ``n``-th item of a one-line array. tomllib
    keeps no positions; a TOML key is on the line that assigns it, below its table's header, which
    this finds without a second parser of the values. Falls back to the table's header."""
    header_line, inside = 1, not table
    key = loc[0] if loc else ""
    for number, raw in enumerate(lines, start=1):
        stripped = raw.strip()
        if stripped.startswith("["):
            name = tuple(part.strip().strip("\"'") for part in stripped.strip("[]").split("."))
            inside = name == table
            if inside:
                header_line = number
            continue
        if not inside:
            continue
        match = re.match(rf"""\s*(["']?){re.escape(key)}\1\s*=\s*""", raw)
        if not match:
            continue
        if key_itself:
            return number, len(raw) - len(raw.lstrip()) + 1
        if len(loc) > 1 and loc[1].isdigit():
            items = list(re.finditer(r'"(?:[^"\\]|\\.)*"|\'[^\']*\'|[^\s,\[\]]+', raw[match.end():]))
            index = int(loc[1])
            if index < len(items):
                return number, match.end() + items[index].start() + 1
        return number, match.end() + 1
    return header_line, 1


def project_options(start: Path | None = None) -> dict[str, dict[str, Any]] | None:
    """The option defaults of the settings file that applies here, or None without one; raises
    :class:`ProjectError`."""
    found = find_project(start)
    return load_project(found).options() if found else None


__all__ = ["CONFIG_FILE", "Project", "ProjectConfig", "ProjectError", "find_project", "load_project", "locate", "project_options"]
