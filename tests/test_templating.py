"""The template environment escapes output as markupsafe does (templating.escape_output)."""

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


def test_a_macro_module_made_once_still_sees_what_its_macros_read() -> None:
    """Built-in templates make a macro module imported with context once while what it reads is
    unchanged (templating._Template); a macro that reads a name of the importing template's
    context, or a filter that reads the media, must still see each render's own."""
    from jinja2 import DictLoader

    from qti_builder.templating import FILTERS, _Environment

    env = _Environment(loader=DictLoader({
        "macros": "{% macro free() %}[{{ item }}]{% endmacro %}{% macro bound(x) %}({{ x }}){% endmacro %}",
        "page": '{% import "macros" as m with context %}{{ m.free() }}{{ m.bound(item) }}{{ m.bound(media) }}',
    }), autoescape=True)
    env.filters.update(FILTERS)
    page = env.get_template("page")
    assert [page.render(item=n, media=m) for n, m in [(1, "a"), (2, "a"), (2, "b"), (3, "b")]] == [
        "[1](1)(a)", "[2](2)(a)", "[2](2)(b)", "[3](3)(b)"]
    env.loader.mapping["macros"] = "{% macro bound(x) %}({{ x }}){% endmacro %}"  # type: ignore[union-attr]
    bound = env.get_template("macros")
    first = bound.make_module({"item": 1, "media": "a"}, True, {})
    assert bound.make_module({"item": 2, "media": "a"}, True, {}) is first  # reads no name: made once
    assert bound.make_module({"item": 2, "media": "b"}, True, {}) is not first  # the media changed
