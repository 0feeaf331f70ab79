"""The template environment escapes output as markupsafe does (templating.escape_output), with
Jinja's own code generator or the faster one, and its filters find each document's media."""

from __future__ import annotations

from pathlib import Path

import pytest
from markupsafe import Markup, escape

from qti_builder.templating import _environment, escape_output


class Html:
    def __html__(self) -> str:
        return "<b>as is</b>"


VALUES = ["", "plain", "a & b < c > d \"e\" 'f'", "한국어 & <code>", Markup("<i>safe</i> &amp;"), 3, 2.5, None,
          True, Html(), ["<x>"]]


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_escape_output_is_markupsafes_escape_as_plain_text(value: object) -> None:
    assert escape_output(value) == str(escape(value))
    assert isinstance(escape_output(value), str)


TEMPLATE = """{% macro m(x) %}<m>{{ x }}</m>{% endmacro %}{% set block %}<s>{{ text }}</s>{% endset %}
{{ text }}|{{ safe }}|{{ m(text) }}|{{ block }}|{{ number }}|{% filter upper %}{{ text }}{% endfilter %}
"""
# Written by hand: each output escaped once, a macro's, a set block's and a filter block's
# result kept as markup (not escaped again); trim_blocks drops the newline after a block tag.
EXPECTED = """a &amp; &lt;b&gt; &#34;c&#34; &#39;d&#39;|<i>x</i>|<m>a &amp; &lt;b&gt; &#34;c&#34; &#39;d&#39;</m>|<s>a &amp; &lt;b&gt; &#34;c&#34; &#39;d&#39;</s>|7|A &AMP; &LT;B&GT; &#34;C&#34; &#39;D&#39;"""


@pytest.mark.parametrize("overlay", [False, True], ids=["built-in", "overlay"])
def test_templates_escape_each_output_once(overlay: bool, tmp_path: Path) -> None:
    env = _environment(tmp_path if overlay else None)
    rendered = env.from_string(TEMPLATE).render(text="a & <b> \"c\" 'd'", safe=Markup("<i>x</i>"), number=7)
    assert rendered == EXPECTED


def test_a_macro_file_imported_without_context_sees_each_renders_media() -> None:
    """The built-in templates import their macro files without context, so Jinja makes each
    file's module once; the filters in those macros find the media of the document being
    rendered all the same (templating.media_of, set by render_template)."""
    from jinja2 import DictLoader

    from qti_builder.diagnostics import DiagnosticSink
    from qti_builder.media import MediaFile, MediaSet
    from qti_builder.templating import FILTERS, _Environment
    from qti_builder.writers.base import render_template

    env = _Environment(loader=DictLoader({
        "macros": "{% macro picture(text) %}{{ text|xhtml_inline }}|{{ text|html_inline_cdata }}{% endmacro %}",
        "page": '{% import "macros" as m %}{{ m.picture("![a](a.png)") }}',
    }), autoescape=True)
    env.filters.update(FILTERS)

    def media(name: str) -> MediaSet:
        return MediaSet((MediaFile("a.png", name, b"png", "image/png"),))

    rendered = [render_template(env, "page", DiagnosticSink(), media=m, media_prefix=prefix)
                for m, prefix in [(media("one.png"), "media/"), (media("two.png"), "media/"), (media("two.png"), "m/"),
                                  (MediaSet(), "media/")]]
    assert [r.decode().count(src) for r, src in zip(rendered, ['src="media/one.png"', 'src="media/two.png"',
                                                               'src="m/two.png"', 'src="a.png"'])] == [1, 1, 1, 2]
    # (without media, both filters keep the reference as written)
    assert [r.decode().count(ref) for r, ref in zip(rendered, ["@@PLUGINFILE@@/one.png", "@@PLUGINFILE@@/two.png",
                                                               "@@PLUGINFILE@@/two.png", "@@PLUGINFILE@@"])] == [1, 1, 1, 0]
    module = env.get_template("macros").module
    assert env.get_template("macros").module is module  # made once, by Jinja


def test_output_escaping_falls_back_to_jinjas_own_when_the_private_route_changes(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """templating._OutputCodeGenerator overrides a private method of Jinja's code generator; it is
    used only while it renders the probe exactly as Jinja does, and a Jinja where it does not
    (simulated: the override writes the wrong call) gets Jinja's own generator, and the same text.
    The probe's answer is kept in the cache folder for the next run."""
    from jinja2.compiler import CodeGenerator

    from qti_builder import templating

    monkeypatch.setattr(templating, "user_cache_dir", lambda name: str(tmp_path / name))
    templating._output_generator.cache_clear()
    # The Jinja installed here: CI installs the newest, so a release that breaks the private route
    # fails here, while its users still get Jinja's own escaping.
    assert templating._output_generator() is templating._OutputCodeGenerator
    assert [p.read_text() for p in tmp_path.glob("qti-builder/output-probe-*")] == ["fast"]
    monkeypatch.setattr(templating, "escape_output", lambda value: str(value))  # what a changed Jinja might do
    for marker in tmp_path.glob("qti-builder/output-probe-*"):
        marker.unlink()  # another Jinja's files differ, so no answer is kept for it
    templating._output_generator.cache_clear()
    try:
        assert templating._output_generator() is CodeGenerator
        assert [p.read_text() for p in tmp_path.glob("qti-builder/output-probe-*")] == ["jinja"]
        env = templating._environment(None)
        assert env.code_generator_class is CodeGenerator
        rendered = env.from_string(TEMPLATE).render(text="a & <b> \"c\" 'd'", safe=Markup("<i>x</i>"), number=7)
        assert rendered == EXPECTED
    finally:
        templating._output_generator.cache_clear()
