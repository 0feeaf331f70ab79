"""A quiz page's answer hidden in ``<details>`` often wraps its Markdown in ``<div markdown="1">``
… ``</div>`` (kramdown's "Markdown inside", which Jekyll sites use), the answer alone between
blank lines. Before, the wrapper was read as the answer's first line: every answer became
``<div></div>`` and the answer under it, so each question imported as an essay (its answer too
long and too odd for a short one) whose model answer showed the empty ``<div>``, with two QB712
warnings a question. The wrapper shows nothing: the answer is what it holds, and the question's
type is told from it as from any answer.
"""

from __future__ import annotations

from pathlib import Path

from helpers.cli import run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz

PAGE = """## **정보처리 실기 모의고사**

## 단답형

**01. 다음 코드의 실행 결과를 쓰시오. (5점)**
```java
System.out.print(1 + 2);
```
<details>
<summary><b>정답 확인</b></summary>
<div markdown="1">

3

</div>
</details>

## 서술형

**02. GRANT의 기능에 대해 간략히 서술하시오.**
<details>
<summary><b>정답 확인</b></summary>
<div markdown="1">

GRANT는 데이터베이스 관리자가 사용자에게 권한을 부여하는 데 사용하는 명령어이다.

</div>
</details>
"""


def test_a_wrapper_div_in_an_answer_block_is_no_part_of_the_answer(tmp_path: Path) -> None:
    (tmp_path / "page.md").write_text(PAGE, encoding="utf-8")
    code, out, err = run("import", "page.md", "-o", "out", "--lang", "en", cwd=tmp_path)
    assert code == 0, out + err
    assert "QB712" not in err  # no raw HTML kept, none for the sanitiser to remove
    written = (tmp_path / "out" / "page.md").read_text(encoding="utf-8")
    assert "<div" not in written and "</div" not in written
    sink = DiagnosticSink()
    read = read_quiz(tmp_path / "out" / "page.md", sink)
    assert read is not None and not sink.errors
    short, essay = read[0].iter_questions()
    # A number under "단답형" (short answers): what students type, graded as the number 3.
    assert (short.type, short.points) == ("numerical", 5)
    assert [(a.value, a.tolerance) for a in short.answers] == [(3, 0)]
    assert essay.type == "essay"
    assert essay.model_answer == "GRANT는 데이터베이스 관리자가 사용자에게 권한을 부여하는 데 사용하는 명령어이다."
