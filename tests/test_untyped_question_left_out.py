"""A question whose type cannot be told from its answer (QB172, QB173, QB175...) is left out, as one
an error lies in, even when its answer came from an answer key lines below it: the reader's error
at the key's entry says all there is (naming the question: the key is lines away from it), and the model no longer adds "question 'q57c27ab2' has no
'type'" with a YAML hint, of an id the teacher never wrote."""

from __future__ import annotations

from helpers.cli import check_source

PAPER = """---
title: T
---

1. 다음 중 옳은 것은? (보기는 그림 참고)

2. 수도는?
① 부산
② 서울

정답: 1. ② 2. ②
"""


def test_only_the_located_error_of_the_key_entry(tmp_path):
    code, reported = check_source(tmp_path, "paper.md", PAPER, "--lang", "en")
    assert code == 1
    key = PAPER.splitlines().index("정답: 1. ② 2. ②") + 1
    column = PAPER.splitlines()[key - 1].index("②") + 1
    assert [(r.code, r.line, r.column, r.message) for r in reported] == [
        ("QB173", key, column, "the answer '②' to question 1 (line 5) names an option, but that question has no options")]
    assert PAPER.splitlines()[5 - 1].startswith("1. ")
