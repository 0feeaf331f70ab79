"""The ko, ja and zh catalogs cover what a teacher meets reading and checking a paper (issue 29,
"messages a teacher understands"): every reading and checking code (QB1xx, QB2xx) whose registry
entry has an example source is run through ``check --lang ko|ja|zh``, and what is printed for it,
the message and its hint, must hold no English sentence: no run of three or more English words
outside quotes, braces and code. A message or hint the catalogs lack prints in English and fails here,
naming its code, so a new diagnostic comes with its entries.

Japanese and Chinese hints show examples in their own language, never the Korean ones the English
hints carry; and papers with several mistakes print each in their language at its own line.
"""

from __future__ import annotations

import base64
import re
from pathlib import Path

import pytest
from helpers.cli import run

from qti_builder.codes import CODES_LIST, Code
from qti_builder.messages import languages

PNG = base64.b64decode("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==")

#: Reading a source and checking its values; QB23x are the project's (its settings file, --only, diff).
READING = [c for c in CODES_LIST if c.syntax != "text" and c.code < "QB300" and not c.code.startswith("QB23")]

#: English left on purpose, each the quiz's own source text rather than a sentence of ours.
SOURCE_TEXT = {
    # The hint lists the labels the quiz accepts; in an English example they are English words.
    "QB115": {"Partially correct feedback"},
}

#: What is left out when looking for English: quoted text (the source as written, in the quotes of
#: each language), {attributes}, [[blanks]], `code`, and parentheses holding paths or identifiers.
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`|「[^」]*」|『[^』]*』|“[^”]*”|‘[^’]*’|\{[^}]*\}|\[\[.*?\]\]"
                     r"|\([^()]*[_#=/][^()]*\)")
_WORD = re.compile(r"\(?([A-Za-z]+)([.,;:?!)]*)")
HANGUL = re.compile("[\uac00-\ud7a3\u3131-\u318e]")
KANA = re.compile("[\u3040-\u30ff]")


def english_runs(text: str) -> list[str]:
    """Runs of three or more English words, a comma or other stop ending a run (a list of names
    such as 'single_choice, essay' is no sentence); identifiers and paths break a run."""
    runs: list[str] = []
    run_: list[str] = []
    for token in _QUOTED.sub(" | ", text).split():
        match = _WORD.fullmatch(token)
        if match:
            run_.append(match.group(1))
            if match.group(2) in ("", ")"):
                continue
        if len(run_) >= 3:
            runs.append(" ".join(run_))
        run_ = []
    if len(run_) >= 3:
        runs.append(" ".join(run_))
    return runs


def test_english_runs_finds_sentences_and_spares_source_text() -> None:
    assert english_runs("the answer names option E, which does not exist") == ["the answer names option E", "which does not exist"]
    assert english_runs("解答が選択肢 E を指していますが、その選択肢はありません") == []
    assert english_runs("'Answer: the second one' を読み取れません") == []
    assert english_runs("유형: single_choice, multiple_response, essay, file_upload, matching") == []
    assert english_runs("YAML 문법 오류: mapping values are not allowed here") == ["mapping values are not allowed here"]


def printed(tmp_path: Path, code: Code, language: str) -> list[str]:
    """The lines ``check --lang`` prints for ``code``'s example mistake: each message and its hint."""
    return [line for _, line in printed_at(tmp_path, code, language)]


def printed_at(tmp_path: Path, code: Code, language: str) -> list[tuple[str, str]]:
    """The same, each line with the place (``file:line:col``) of the diagnostic it belongs to."""
    folder = tmp_path / f"{code.code}-{language}"
    folder.mkdir()
    (folder / "pic.png").write_bytes(PNG)
    source = folder / f"{code.file}.{code.syntax}"
    source.write_text(code.mistake, encoding="utf-8")
    _, _, err = run("check", str(source), "-j", "1", "--lang", language)
    lines: list[tuple[str, str]] = []
    mine, place = False, ""
    for line in err.splitlines():
        found = re.search(r"(?:([^/\\]*:\d+:\d+): )?(error|warning)\[QB\d{3}\]: ", line)
        if found:
            mine, place = f"[{code.code}]: " in line, found.group(1) or ""
            if mine:
                lines.append((place, line.split(f"[{code.code}]: ", 1)[1]))
        elif line.startswith("    hint: ") and mine:
            lines.append((place, line[len("    hint: "):]))
        else:
            mine = False
    return lines


@pytest.mark.parametrize("language", languages())  # a catalog added is checked as soon as it exists
def test_every_reading_and_checking_message_prints_translated(tmp_path: Path, language: str) -> None:
    untranslated: dict[str, list[str]] = {}
    for code in READING:
        lines = printed(tmp_path, code, language)
        assert lines, f"{code.code}'s example printed nothing for it"
        left = [run_ for line in lines for run_ in english_runs(line) if run_ not in SOURCE_TEXT.get(code.code, set())]
        if left:
            untranslated[code.code] = left
    assert untranslated == {}, (f"add entries for these to src/qti_builder/locale/{language}/LC_MESSAGES/qti_builder.po "
                                f"(and the other catalogs): {untranslated}")


@pytest.mark.parametrize("language", ["ja", "zh"])
def test_japanese_and_chinese_hints_show_no_korean_examples(tmp_path: Path, language: str) -> None:
    # The English hints show Korean forms ('Ⅱ. 단답형', '정답: ②'); a Japanese or Chinese teacher
    # sees forms of their own paper. Hangul is printed only where the example source has it.
    korean = {}
    for code in READING:
        if HANGUL.search(code.mistake + code.file):
            continue
        lines = [line for line in printed(tmp_path, code, language) if HANGUL.search(line)]
        if lines:
            korean[code.code] = lines
    assert korean == {}


JAPANESE_PAPER = """---
title: 理科
language: ja
---

1. 2＋2は？

ア　3
イ　4

正答: イ

2. 水の化学式は？

ア　H2O
イ　CO2

【解答】ウ
"""

CHINESE_PAPER = """---
title: 期末考试
language: zh
---

1. 2+2=?

A. 3
B. 4

答案：E

2. 水的化学式是什么？

A. H2O
B. CO2

答按：A
"""


def errors(tmp_path: Path, name: str, text: str, *more: str) -> list[str]:
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1", *more)
    assert code == 1
    return err.splitlines()


def test_a_japanese_paper_with_two_mistakes_prints_both_in_japanese_at_their_lines(tmp_path: Path) -> None:
    # Line 11 '正答: イ' is no label of the paper's; line 18 '【解答】ウ' names an option question 2 lacks.
    lines = errors(tmp_path, "ja.md", JAPANESE_PAPER)
    assert any(line.endswith("ja.md:11:1: error[QB115]: 不明なラベル「正答」。「答」のことですか？") for line in lines), lines
    assert any(line.endswith("ja.md:18:5: error[QB126]: 解答が選択肢 ウ を指していますが、その選択肢はありません") for line in lines), lines
    assert "    hint: 選択肢は ア, イ です" in lines
    assert not any(HANGUL.search(line) for line in lines), lines


def test_a_chinese_paper_with_mistakes_prints_each_in_chinese_at_its_line(tmp_path: Path) -> None:
    # Line 11 '答案：E' names no option; question 2 (line 13) has no answer, as its 'answer' on
    # line 18 is misspelt '答按' and so is text after the options.
    lines = errors(tmp_path, "zh.md", CHINESE_PAPER)
    assert any(line.endswith("zh.md:11:4: error[QB126]: 答案指向选项 E，但没有这个选项") for line in lines), lines
    assert any(line.endswith("zh.md:13:1: error[QB120]: 本题有选项，但没有正确答案") for line in lines), lines
    assert any(line.endswith("zh.md:18:1: error[QB117]: 选项之后有不属于任何选项或标签的文字") for line in lines), lines
    assert not any(HANGUL.search(line) or KANA.search(line) for line in lines), lines
    assert not any(english_runs(line.split("]: ", 1)[-1]) for line in lines if "error[" in line or "hint:" in line), lines


def test_lang_prints_a_papers_messages_in_another_language(tmp_path: Path) -> None:
    # The Chinese paper's mistakes, for a Korean colleague: Korean, at the same lines.
    lines = errors(tmp_path, "zh.md", CHINESE_PAPER, "--lang", "ko")
    assert any(line.endswith("zh.md:11:4: error[QB126]: 정답이 보기 E을(를) 가리키지만 그런 보기가 없습니다") for line in lines), lines
    assert any("zh.md:18:1: error[QB117]: " in line and HANGUL.search(line) for line in lines), lines


def test_a_pasted_chinese_paper_imports_with_chinese_messages(tmp_path: Path) -> None:
    # A paper pasted as text (no front matter) after its closing mark: import prints it in Chinese.
    paper = tmp_path / "paper.txt"
    paper.write_text("期末考试\n\n1．2+2=?\nA．3\nB．4\n答案：B\n\n- 完 -\n多余的文字\n", encoding="utf-8")
    code, _, err = run("import", str(paper), "--out", str(tmp_path / "out"), "--lang", "zh")
    assert code == 1
    assert any(line.endswith("paper.txt:9:1: error[QB155]: 第 8 行结束标记之后的文字不属于任何题目") for line in err.splitlines()), err
    assert "    hint: 结束标记（如“- 完 -”）表示题目结束：把这段文字移到标记之上所属的题目中，或删除" in err.splitlines()


QUIZ_PAGE = """# 小テスト

## Question 1

2＋2は？

- A) 3
- B) 4

## Question 2

水の化学式は？

- A) H2O
- B) CO2

## Question 3

日本の首都について書きなさい。

## 解答

1. B
2. C
5. A
"""


@pytest.mark.parametrize("language", ["ja", "zh", "ko"])
def test_a_quiz_pages_key_and_answer_errors_print_in_the_language_asked(tmp_path: Path, language: str) -> None:
    # A web page's quiz (headings per question, a key at the end): the key answers question 2 with
    # an option it lacks (line 24) and a question 5 the page lacks (line 25), and leaves question 3
    # (line 17) with no options and no answer: QB705 three times, QB706 once, each translated.
    page = tmp_path / "page.md"
    page.write_text(QUIZ_PAGE, encoding="utf-8")
    code, _, err = run("import", str(page), "--out", str(tmp_path / "out"), "--lang", language)
    assert code == 1
    lines = err.splitlines()
    where = [re.sub(r"^.*page\.md:(\d+:\d+): error\[(QB\d+)\].*$", r"\1 \2", line) for line in lines if "error[" in line]
    assert where == ["17:1 QB705", "17:1 QB706", "24:4 QB705", "25:4 QB705"], lines
    said = [line.split("]: ", 1)[-1].removeprefix("    hint: ") for line in lines if "error[" in line or line.startswith("    hint:")]
    assert len(said) == 8 and not any(english_runs(line) for line in said), said
    if language == "ja":
        assert "解答一覧に問 5 の項目（「A」）がありますが、問題用紙に問 5 がありません（問題は 1–3）" in said
        assert any("【解答】" in line for line in said)
    if language != "ko":
        assert not any(HANGUL.search(line) for line in said), said
    if language == "zh":
        assert "答案表中第 2 题的答案是 C，但它不是第 2 题（第 10 行）的选项（选项为 A–B）" in said


STATED_TOTAL = """---
title: 과학 (총점 10점)
language: ko
---

## Ⅰ. 객관식

1. 2+2는? (3점)

① 3
② 4

정답: ②

## Ⅱ. 단답형

2. 물의 화학식은?

정답: H2O
"""


@pytest.mark.parametrize("language, expected", [
    ("ko", "시험지에는 총점 10점(이)라고 되어 있지만 문항 배점의 합은 4점입니다 (6점 부족): Ⅰ. 객관식: 1문항에 3점; "
           "Ⅱ. 단답형: 1문항에 1점; 그중 1문항은 1점 (배점을 찾지 못한 문항의 점수)"),
    ("zh", "试卷标明총점 10점，但各题分值之和为 4 分（少 6 分）：Ⅰ. 객관식：1 题共 3 分; Ⅱ. 단답형：1 题共 1 分; "
           "其中 1 题为 1 分（未找到分值的题目按 1 分计）"),
])
def test_a_stated_total_lists_each_section_in_the_language(tmp_path: Path, language: str, expected: str) -> None:
    # 3 + 1 (question 2's points not found) = 4 of the 10 the title states: QB219 names each
    # section and the question worth the default, part by part in the language (however many).
    lines = errors(tmp_path, "total.md", STATED_TOTAL, "--lang", language)
    assert any(line.endswith(f"total.md:2:12: error[QB219]: {expected}") for line in lines), lines


STRUCTURE_PAGE = """# テスト

## Question 1

2＋2は？

- A) 3
- B) 4

正解: B

（各３点）

## Question 2

3＋3は？

- A) 6
- B) 5

正解: A

以上

おまけの文
"""


@pytest.mark.parametrize("language, rule, after", [
    ("ja", "「（各３点）」は配点の規則の形なので、上の問題の一部としては読みません",
     "25 行目（「おまけの文」）が、問題の終わりを示す 23 行目の終わりの印の後にあります"),
    ("zh", "“（各３点）”的形式是分值说明，因此不会被读作上面题目的一部分",
     "第 25 行（“おまけの文”）位于第 23 行的结束标记之后，而结束标记表示题目已结束"),
])
def test_a_quiz_pages_structure_lines_print_in_the_language_asked(tmp_path: Path, language: str, rule: str, after: str) -> None:
    # A points rule (line 12) after question 1's answer, and text (line 25) after the closing mark
    # '以上' (line 23): QB722 and QB723, each at its line.
    page = tmp_path / "page.md"
    page.write_text(STRUCTURE_PAGE, encoding="utf-8")
    code, _, err = run("import", str(page), "--out", str(tmp_path / "out"), "--lang", language)
    assert code == 1
    lines = err.splitlines()
    assert any(line.endswith(f"page.md:12:1: error[QB722]: {rule}") for line in lines), lines
    assert any(line.endswith(f"page.md:25:1: error[QB723]: {after}") for line in lines), lines
    assert not any(english_runs(line.removeprefix("    hint: ")) for line in lines if line.startswith("    hint: ")), lines
