"""The Jinja environment every writer renders through.

Templates are looked up first in the user's ``--templates DIR`` and then in the built-in folder,
so overriding one template means writing one file with the same relative path (MkDocs'
``custom_dir``). A user template can extend the original as ``builtin/<path>``. With an overlay
the environment is sandboxed (a template is code, but a user's template cannot reach Python
internals); the built-in templates alone are this package's own code and render without the
sandbox's check on every attribute access (a fifth of the rendering time, bench/). Undefined
names are errors, and XML autoescaping is always on: text reaches the XML escaped unless a filter
marks it as markup on purpose.
"""

from __future__ import annotations

from collections.abc import Callable
import base64
import hashlib
from functools import lru_cache
from html import unescape as html_unescape
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import (ChoiceLoader, Environment, FileSystemBytecodeCache, FileSystemLoader, PrefixLoader, StrictUndefined,
                    Template, meta, pass_context)
from jinja2.compiler import CodeGenerator
from jinja2.runtime import Context, missing
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

try:  # markupsafe's own escaping, without wrapping the result in Markup
    from markupsafe._speedups import _escape_inner
except ImportError:  # pragma: no cover - markupsafe without its C extension
    from markupsafe._native import _escape_inner
from platformdirs import user_cache_dir

from . import content
from .media import MediaSet
from .model.questions import BLANK_MARKER
from .resources import data_dir


def cdata(text: str | None) -> Markup:
    """Text as a CDATA section, with any ``]]>`` inside split across two sections."""
    text = text or ""
    return Markup("<![CDATA[" + text.replace("]]>", "]]]]><![CDATA[>") + "]]>")


def number(value: float, decimals: int = 7) -> str:
    """A decimal without float noise: 1 -> '1', 33.333333333 -> '33.3333333'."""
    text = f"{value:.{decimals}f}".rstrip("0").rstrip(".")
    return text if text not in ("", "-0") else "0"


def fill_blanks(markup: str, render: Callable[[str], str]) -> Markup:
    """Rendered markup with each ``[[blank-id]]`` marker replaced by ``render(blank_id)``, a macro
    that returns the blank's markup (``{{ stem|xhtml|fill_blanks(blank_macro) }}``)."""
    return Markup(BLANK_MARKER.sub(lambda match: str(render(match.group(1))), str(markup)))


def _renames(ctx: Context, target: str) -> content.Renames:
    """Where the rendered text must point for each media file of the quiz (``media`` in the
    template context): ``<media_prefix><name>`` in QTI and Canvas, ``@@PLUGINFILE@@/<name>`` in Moodle."""
    media = ctx.get("media")
    if not media or not media.files:  # most quizzes: asked for every text, so answered at once
        return ()
    return _media_renames(media, "@@PLUGINFILE@@/" if target == "moodle" else ctx.get("media_prefix", "media/"))


@lru_cache(maxsize=64)
def _media_renames(media: MediaSet, prefix: str) -> content.Renames:
    if prefix == "@@PLUGINFILE@@/":  # Moodle's file references are URL-encoded
        return tuple((f.ref, prefix + quote(f.name)) for f in media.files)
    return media.rename(prefix)


@pass_context
def xhtml(ctx: Context, text: str | None) -> Markup:
    return Markup(content.render_block(text or "", _renames(ctx, "qti")))


@pass_context
def xhtml_inline(ctx: Context, text: str | None) -> Markup:
    return Markup(content.render_inline(text or "", _renames(ctx, "qti")))


@pass_context
def html_cdata(ctx: Context, text: str | None) -> Markup:
    return cdata(content.render_html(text, _renames(ctx, "moodle")) if text else "")


@pass_context
def html_inline_cdata(ctx: Context, text: str | None) -> Markup:
    return cdata(content.render_html_inline(text, _renames(ctx, "moodle")) if text else "")


@pass_context
def canvas_html(ctx: Context, text: str | None) -> str:
    """HTML for Canvas as text (escaped where it is written): an element whose content is HTML."""
    return content.render_canvas(text, _renames(ctx, "canvas")) if text else ""


@pass_context
def canvas_mattext(ctx: Context, text: str | None, inline: bool = False) -> Markup:
    """A ``<mattext>`` for Canvas with ``text`` rendered and escaped. Inline text without markup is
    written as plain text: Canvas keeps plain text exactly, while of an HTML answer it also stores
    a copy stripped of tags and entities (docs/lms-behaviour.md)."""
    renames = _renames(ctx, "canvas")
    if inline:
        rendered = content.render_canvas_inline(text or "", renames)
        if "<" not in rendered:
            return Markup('<mattext texttype="text/plain">' + escape_output(html_unescape(rendered)) + "</mattext>")
    else:
        rendered = content.render_canvas(text or "", renames)
    # Joined rather than Markup.format, whose string.Formatter took half of this filter's time.
    return Markup('<mattext texttype="text/html">' + escape_output(rendered) + "</mattext>")


@pass_context
def moodle_files(ctx: Context, text: str | None) -> Markup:
    """The ``<file>`` elements Moodle needs beside a ``<text>`` for the media that text shows:
    an ``@@PLUGINFILE@@`` reference only resolves to a file in the same element."""
    media = ctx.get("media")
    if not text or not media or not media.files:
        return Markup("")
    files, seen = [], set()
    for ref, _, _ in content.media_refs(text):
        found = media.get(ref)
        if found and found.name not in seen:
            seen.add(found.name)
            files.append(f'<file name="{found.name}" path="/" encoding="base64">{base64.b64encode(found.data).decode()}</file>')
    return Markup("".join(files))


FILTERS = {
    "xhtml": xhtml,
    "xhtml_inline": xhtml_inline,
    "html_cdata": html_cdata,
    "html_inline_cdata": html_inline_cdata,
    "moodle_files": moodle_files,
    "canvas_mattext": canvas_mattext,
    "canvas_html": canvas_html,
    "cdata": cdata,
    "number": number,
    "fill_blanks": fill_blanks,
    "plain": content.plain_text,
}


@lru_cache(maxsize=8)
def make_environment(user_templates: Path | None = None) -> Environment:
    """One environment per template folder and process, so each template is compiled once
    (with an overlay, Jinja still reloads a template whose file changed, for ``serve`` and
    ``--watch``; the built-in templates do not change while qti-builder runs)."""
    return _environment(user_templates)


#: What a dict has as attributes (its methods): ``x.name`` finds these before any key.
_DICT_ATTRIBUTES = frozenset(dir(dict))


def escape_output(value: Any) -> str:
    """What ``{{ value }}`` writes under autoescaping, as :func:`markupsafe.escape` would escape it,
    but as a plain ``str``: Jinja's own call wraps every output in a new ``Markup`` only for it to
    be joined into the document at once (a tenth of the rendering time, bench/README.md)."""
    if type(value) is str:
        return _escape_inner(value)  # type: ignore[no-any-return]
    if hasattr(value, "__html__"):
        return value.__html__()  # type: ignore[no-any-return]
    return _escape_inner(str(value))  # type: ignore[no-any-return]


class _OutputCodeGenerator(CodeGenerator):
    """Compiles ``{{ ... }}`` under autoescaping to :func:`escape_output` instead of
    ``escape``. Only output goes through it: what Jinja does with an output (append it to the
    buffer that is joined into a string, or into ``Markup`` for a macro, a ``set`` block or a
    filter block) needs no ``Markup``, since joining makes a plain string either way."""

    def _output_child_pre(self, node: Any, frame: Any, finalize: Any) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
            self.write(f"environment.escape_output({finalize.src or ''}")
            return
        super()._output_child_pre(node, frame, finalize)


#: What the filters read from the template context besides their arguments (``_renames``,
#: ``moodle_files``): a macro module made with context depends on these too.
FILTER_CONTEXT = ("media", "media_prefix")


class _Template(Template):
    """A built-in template that, imported ``with context`` (``{% import "qti21/_macros.xml.j2" as m
    with context %}``, once per question and target), makes its module once for as long as the
    context names its macros read (free names, and what the filters read) are the same objects:
    making the module anew for every question was a seventh of the rendering time. A module of
    macros that read the question's own names (Canvas's) is made anew for each question, as
    Jinja does."""

    _reads: tuple[str, ...] | None = None
    _last: tuple[tuple[object, ...], Any] | None = None

    def make_module(self, vars: dict[str, Any] | None = None, shared: bool = False,
                    locals: Any = None) -> Any:
        loader = self.environment.loader
        if (not shared or vars is None or self.name is None or loader is None
                or any(value is not missing for value in (locals or {}).values())):
            return super().make_module(vars, shared, locals)
        if self._reads is None:
            source = loader.get_source(self.environment, self.name)[0]
            free = meta.find_undeclared_variables(self.environment.parse(source))
            self._reads = tuple(sorted(free)) + FILTER_CONTEXT
        values = tuple(vars.get(name, missing) for name in self._reads)
        last = self._last
        if last is not None and len(last[0]) == len(values) and all(a is b for a, b in zip(last[0], values)):
            return last[1]
        module = super().make_module(vars, shared, locals)
        self._last = (values, module)
        return module


class _SandboxedEnvironment(SandboxedEnvironment):
    """The sandbox of a ``--templates`` overlay, its output escaped by :func:`escape_output`."""

    code_generator_class = _OutputCodeGenerator
    escape_output = staticmethod(escape_output)


class _Environment(Environment):
    """Jinja's environment, with ``x.name`` on a dict (what the writers give the templates)
    looked up as the key at once: Jinja tries the attribute first, which for a key raises and
    catches an AttributeError, a twentieth of the rendering time (bench/README.md). The same
    value or undefined as Jinja's own lookup, a dict's methods included. Its output is escaped
    by :func:`escape_output`."""

    code_generator_class = _OutputCodeGenerator
    escape_output = staticmethod(escape_output)
    template_class = _Template

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def _environment(user_templates: Path | None) -> Environment:
    builtin = FileSystemLoader(str(data_dir("templates")))
    loaders = [FileSystemLoader(str(user_templates))] if user_templates else []
    loader = ChoiceLoader([*loaders, builtin, PrefixLoader({"builtin": builtin})])
    kind = _SandboxedEnvironment if user_templates else _Environment
    env = kind(
        loader=loader,
        auto_reload=user_templates is not None,
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=_bytecode_cache(kind.__name__),
    )
    env.filters.update(FILTERS)
    return env


def _bytecode_cache(kind: str) -> FileSystemBytecodeCache | None:
    """Compiled templates kept between runs: compiling them is a tenth of a cold build (bench/).
    Jinja keys the cache by template and source; the folder's name adds this module's own
    source and the environment's class (a sandbox compiles every call to a checked one), so
    code compiled under other settings is never loaded."""
    settings = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()[:16]
    folder = Path(user_cache_dir("qti-builder")) / f"templates-{settings}-{kind}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only home: compile every time, as without a cache
        return None
    return FileSystemBytecodeCache(str(folder))
