"""The Jinja environment every writer renders through.

Templates are looked up first in the user's ``--templates DIR`` and then in the built-in folder,
so overriding one template means writing one file with the same relative path (MkDocs'
``custom_dir``). A user template can extend the original as ``builtin/<path>``. The environment
is sandboxed (a template is code, but a template cannot reach Python internals), undefined names
are errors, and XML autoescaping is always on: text reaches the XML escaped unless a filter marks
it as markup on purpose.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from jinja2 import ChoiceLoader, FileSystemLoader, PrefixLoader, StrictUndefined
from jinja2.sandbox import SandboxedEnvironment
from markupsafe import Markup

from . import content
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


FILTERS = {
    "xhtml": lambda text: Markup(content.render_block(text or "")),
    "xhtml_inline": lambda text: Markup(content.render_inline(text or "")),
    "html_cdata": lambda text: cdata(content.render_block(text)) if text else cdata(""),
    "html_inline_cdata": lambda text: cdata(content.render_inline(text)) if text else cdata(""),
    "cdata": cdata,
    "number": number,
    "fill_blanks": fill_blanks,
    "plain": content.plain_text,
}


def make_environment(user_templates: Path | None = None) -> SandboxedEnvironment:
    builtin = FileSystemLoader(str(data_dir("templates")))
    loaders = [FileSystemLoader(str(user_templates))] if user_templates else []
    loader = ChoiceLoader([*loaders, builtin, PrefixLoader({"builtin": builtin})])
    env = SandboxedEnvironment(
        loader=loader,
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(FILTERS)
    return env
