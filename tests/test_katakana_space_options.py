"""Japanese papers mark options ``ア 大阪`` with an ordinary space as often as with a full-width one
(``ア　大阪``): both are options; a formula's line that starts with a katakana name and an operator
(``ア &= 74``, ``イ = 3``) stays the text it is."""

from __future__ import annotations

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz

PAPER = """---
title: 地理
language: ja
---

問1 日本の首都はどこですか。
ア 大阪
イ 東京
ウ 京都

問2 次の式で、アはいくつですか。

$$
ア &= 74
$$

ア 73
イ 74

正解
問1 イ
問2 イ
"""


def test_options_marked_with_a_plain_space(tmp_path):
    path = tmp_path / "paper.md"
    path.write_text(PAPER, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(path, sink)
    assert read is not None and not sink.errors, [str(d) for d in sink.items]
    questions = [q for s in read[0].sections for q in s.questions]
    assert [[c.text for c in q.choices] for q in questions] == [["大阪", "東京", "京都"], ["73", "74"]]
    assert [[c.text for c in q.choices if c.correct] for q in questions] == [["東京"], ["74"]]
    assert "ア &= 74" in questions[1].stem
