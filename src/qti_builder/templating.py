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

from collections.abc import Callable, Iterator
import base64
import re
import hashlib
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from html import unescape as html_unescape
from pathlib import Path
from typing import Any
from urllib.parse import quote

import jinja2.compiler
import markupsafe
from jinja2 import (ChoiceLoader, DictLoader, Environment, FileSystemBytecodeCache, FileSystemLoader, PrefixLoader,
                    StrictUndefined)
from jinja2.compiler import CodeGenerator
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup
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


#: A calculated item's placeholder inside a formula as the QTI 2.1 writer leaves it in MathML.
_MATH_VARIABLE = re.compile(r"<mtext>\[\[([A-Za-z][A-Za-z0-9_]*)\]\]</mtext>")


def math_variables(markup: str) -> Markup:
    """Rendered markup with each placeholder inside a formula, ``<mtext>[[a]]</mtext>`` (written
    ``\\text{[[a]]}``, which latex2mathml turns into one element whatever the name), made the
    ``<mi>a</mi>`` in whose place a QTI 2.1 player puts a ``mathVariable``'s value."""
    return Markup(_MATH_VARIABLE.sub(r"<mi>\1</mi>", str(markup)))


def equation_placeholders(markup: str, names: list[str]) -> Markup:
    """A Canvas calculated question's text with each ``[name]`` of ``names`` written as it is in
    its equation images' addresses (``/equation_images/…%255Bname%255D…``, the TeX URL-encoded twice):
    Canvas replaces ``[name]`` in the question's HTML with the set's value, and a value (digits,
    ``-``, ``.``) needs no encoding, so the image drawn from the address shows it too."""
    text = str(markup)
    for name in names:
        text = text.replace(f"%255B{name}%255D", f"[{name}]")
    return Markup(text)


#: The media of the document being rendered and the folder its files go to in the package:
#: what the filters point a text's media references at. Set by :func:`render_template` from the
#: render's ``media`` and ``media_prefix``, so that the filters need no template context and the
#: macro files can be imported without one (Jinja then makes each file's module once and keeps it).
_MEDIA: ContextVar[tuple[MediaSet | None, str]] = ContextVar("qti_builder_media", default=(None, "media/"))


@contextmanager
def media_of(media: MediaSet | None, prefix: str = "media/") -> Iterator[None]:
    """While rendering a document: the media its texts may show, and where they are in the package."""
    token = _MEDIA.set((media, prefix))
    try:
        yield
    finally:
        _MEDIA.reset(token)


def _renames(target: str) -> content.Renames:
    """Where the rendered text must point for each media file of the quiz (:func:`media_of`):
    ``<media_prefix><name>`` in QTI and Canvas, ``@@PLUGINFILE@@/<name>`` in Moodle."""
    media, prefix = _MEDIA.get()
    if not media or not media.files:  # most quizzes: asked for every text, so answered at once
        return ()
    return _media_renames(media, "@@PLUGINFILE@@/" if target == "moodle" else prefix)


@lru_cache(maxsize=64)
def _media_renames(media: MediaSet, prefix: str) -> content.Renames:
    if prefix == "@@PLUGINFILE@@/":  # Moodle's file references are URL-encoded
        return tuple((f.ref, prefix + quote(f.name)) for f in media.files)
    return media.rename(prefix)


def xhtml(text: str | None) -> Markup:
    return Markup(content.render_block(text or "", _renames("qti")))


def xhtml_inline(text: str | None) -> Markup:
    return Markup(content.render_inline(text or "", _renames("qti")))


def html_cdata(text: str | None) -> Markup:
    return cdata(content.render_html(text, _renames("moodle")) if text else "")


def html_inline_cdata(text: str | None) -> Markup:
    return cdata(content.render_html_inline(text, _renames("moodle")) if text else "")


def canvas_html(text: str | None) -> str:
    """HTML for Canvas as text (escaped where it is written): an element whose content is HTML."""
    return content.render_canvas(text, _renames("canvas")) if text else ""


def canvas_mattext(text: str | None, inline: bool = False) -> Markup:
    """A ``<mattext>`` for Canvas with ``text`` rendered and escaped. Inline text without markup is
    written as plain text: Canvas keeps plain text exactly, while of an HTML answer it also stores
    a copy stripped of tags and entities (docs/lms-behaviour.md)."""
    renames = _renames("canvas")
    if inline:
        rendered = content.render_canvas_inline(text or "", renames)
        if "<" not in rendered:
            return Markup("".join(('<mattext texttype="text/plain">', escape_output(html_unescape(rendered)), "</mattext>")))
    else:
        rendered = content.render_canvas(text or "", renames)
    # Joined rather than Markup.format, whose string.Formatter took half of this filter's time.
    return Markup("".join(('<mattext texttype="text/html">', escape_output(rendered), "</mattext>")))


def moodle_files(text: str | None) -> Markup:
    """The ``<file>`` elements Moodle needs beside a ``<text>`` for the media that text shows:
    an ``@@PLUGINFILE@@`` reference only resolves to a file in the same element."""
    media = _MEDIA.get()[0]
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
    "math_variables": math_variables,
    "equation_placeholders": equation_placeholders,
    "plain": content.plain_text,
}


# -- Output escaping -------------------------------------------------------------------------
# The one private route left (bench/README.md, "Jinja without a pin"): under autoescaping Jinja
# compiles ``{{ x }}`` to ``markupsafe.escape(x)``, a new ``Markup`` for each of about a million
# outputs of a 10,000-question build, only for it to be joined into the document at once. No
# public setting changes what an output compiles to (``finalize`` runs inside ``escape``), so a
# code generator that overrides Jinja's private ``_output_child_pre`` writes ``escape_output(x)``,
# the same text as a plain ``str``. It is used only where it renders a probe template exactly as
# Jinja's own generator does (:func:`_output_generator`), so another Jinja that changes that
# method renders as Jinja does, only slower; nothing pins Jinja.


def _escape_text(text: str) -> str:
    """markupsafe's escaping of a ``str``, as a ``str`` (its five characters, in its order). Most
    outputs (identifiers, numbers, words) have none of them: asking first is a third faster."""
    if "&" in text or "<" in text or ">" in text or "'" in text or '"' in text:
        return (text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;").replace("'", "&#39;")
                .replace('"', "&#34;"))
    return text


def escape_output(value: Any) -> str:
    """What ``{{ value }}`` writes under autoescaping: :func:`markupsafe.escape`'s text, as a
    plain ``str``."""
    if type(value) is str:
        return _escape_text(value)
    if hasattr(value, "__html__"):
        return value.__html__()  # type: ignore[no-any-return]
    return _escape_text(str(value))


class _OutputCodeGenerator(CodeGenerator):
    """Compiles ``{{ ... }}`` under autoescaping to :func:`escape_output` instead of ``escape``.
    What Jinja does with an output (append it to the buffer joined into the document, or into
    the ``Markup`` of a macro, a ``set`` block or a filter block) needs no ``Markup``."""

    def _output_child_pre(self, node: Any, frame: Any, finalize: Any) -> None:
        if frame.eval_ctx.autoescape and not frame.eval_ctx.volatile:
            self.write(f"environment.escape_output({finalize.src or ''}")
            return
        super()._output_child_pre(node, frame, finalize)


#: Every way an output is written (a plain output, a macro's, a call block's, a set block's, a
#: filter block's, an ``autoescape`` block's, a filter's markup), rendered by both generators.
_PROBE = """{% macro m(x) %}<m>{{ x }}{{ caller() if caller else '' }}</m>{% endmacro %}{% set block %}<s>{{ text }}</s>{% endset %}
{{ text }}|{{ safe }}|{{ m(text) }}|{% call m(number) %}{{ text }}{% endcall %}|{{ block }}|{{ number }}|{{ none_ }}|{{ items }}
{% filter upper %}{{ text }}{% endfilter %}|{% autoescape false %}{{ text }}{% endautoescape %}|{{ text|e }}|{{ text ~ safe }}
{% for x in items %}{{ loop.index }}{{ x }}{% endfor %}"""
_PROBE_VALUES: dict[str, Any] = {"text": "a & <b> \"c\" 'd' 한국어", "safe": Markup("<i>x</i> &amp;"), "number": 2.5,
                                 "none_": None, "items": ["<x>", Markup("<y/>")]}


def _renders_probe(generator: type[CodeGenerator]) -> str:
    env = Environment(loader=DictLoader({"probe": _PROBE}), autoescape=True, trim_blocks=True, lstrip_blocks=True)
    env.code_generator_class = generator
    env.escape_output = escape_output  # type: ignore[attr-defined]
    return env.get_template("probe").render(**_PROBE_VALUES)


@lru_cache(maxsize=1)
def _output_generator() -> type[CodeGenerator]:
    """:class:`_OutputCodeGenerator` if the installed Jinja renders the probe with it exactly as
    with its own generator; Jinja's own otherwise (a Jinja whose private method changed). The
    answer is kept in the cache folder for these settings (:func:`_settings`): probing costs two
    template compilations, a fortieth of a cold build."""
    marker = Path(user_cache_dir("qti-builder")) / f"output-probe-{_settings()}"
    try:
        return _OutputCodeGenerator if marker.read_text("ascii") == "fast" else CodeGenerator
    except (OSError, UnicodeDecodeError):
        pass
    fast = False
    try:
        fast = _renders_probe(_OutputCodeGenerator) == _renders_probe(CodeGenerator)
    except Exception:  # noqa: BLE001 - any failure of the private route means: do without it
        pass
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.write_text("fast" if fast else "jinja", "ascii")
    except OSError:  # a read-only home: probe again next time
        pass
    return _OutputCodeGenerator if fast else CodeGenerator


@lru_cache(maxsize=8)
def make_environment(user_templates: Path | None = None) -> Environment:
    """One environment per template folder and process, so each template is compiled once
    (with an overlay, Jinja still reloads a template whose file changed, for ``serve`` and
    ``--watch``; the built-in templates do not change while qti-builder runs)."""
    return _environment(user_templates)


#: What a dict has as attributes (its methods): ``x.name`` finds these before any key.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(Environment):
    """Jinja's environment, with ``x.name`` on a dict (what the writers give the templates)
    looked up as the key at once: Jinja tries the attribute first, which for a key raises and
    catches an AttributeError, a twentieth of the rendering time (bench/README.md). The same
    value or undefined as Jinja's own lookup, a dict's methods included (``Environment.getattr``
    is Jinja's public hook for this)."""

    escape_output = staticmethod(escape_output)

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except (TypeError, LookupError):
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


class _SandboxedEnvironment(SandboxedEnvironment):
    """The sandbox of a ``--templates`` overlay, its output escaped as the built-in environment's."""

    escape_output = staticmethod(escape_output)


def _environment(user_templates: Path | None) -> Environment:
    builtin = FileSystemLoader(str(data_dir("templates")))
    loaders = [FileSystemLoader(str(user_templates))] if user_templates else []
    loader = ChoiceLoader([*loaders, builtin, PrefixLoader({"builtin": builtin})])
    kind = _SandboxedEnvironment if user_templates else _Environment
    generator = _output_generator()
    env = kind(
        loader=loader,
        auto_reload=user_templates is not None,
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        bytecode_cache=_bytecode_cache(f"{kind.__name__}-{generator.__name__}"),
    )
    env.code_generator_class = generator
    env.filters.update(FILTERS)
    return env


@lru_cache(maxsize=1)
def _settings() -> str:
    """What compiled templates and the escaping probe depend on: this module's source and the
    installed Jinja's compiler and markupsafe (their files' sizes and times)."""
    stats = [Path(module.__file__ or "").stat() for module in (jinja2.compiler, markupsafe)]
    versions = "".join(f"{stat.st_size}/{stat.st_mtime_ns};" for stat in stats)
    return hashlib.sha256(Path(__file__).read_bytes() + versions.encode()).hexdigest()[:16]


def _bytecode_cache(kind: str) -> FileSystemBytecodeCache | None:
    """Compiled templates kept between runs: compiling them is a tenth of a cold build (bench/).
    Jinja keys the cache by template and source; the folder's name adds this module's own
    source, the installed Jinja's compiler and the environment's class (a sandbox compiles
    every call to a checked one), so code compiled under other settings is never loaded."""
    folder = Path(user_cache_dir("qti-builder")) / f"templates-{_settings()}-{kind}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError:  # a read-only home: compile every time, as without a cache
        return None
    return FileSystemBytecodeCache(str(folder))
