"""Messages in the teacher's language (issue 29): the ko, ja and zh catalogs (gettext .po files read
with Babel) translate what a teacher pasting a paper meets, following the quiz's ``language`` or
``--lang``; English is the default; hints show examples in the quiz's language; and every catalog
entry keeps the English message's placeholders.

The expected translations are the catalogs' own words, checked here by what distinguishes each
language (Hangul, kana, simplified Chinese), never copied from the command's output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po
from helpers.cli import run

from qti_builder import messages
from qti_builder.messages import catalog_path, kind_catalog_paths, placeholders, translate

PAPER = """---
title: Paper
language: {language}
---

1. 2 + 2 = ? {{#a}}

A) 3
B) 4

Anwser: B

2. 3 + 3 = ? {{#b}}

A) 6
B) 5

{label}: E

3. Is 7 a prime number? {{#c type=true_false}}

{label}: maybe
"""

LABELS = {"ko": "정답", "ja": "正解", "zh": "答案", "en": "Answer"}
HANGUL = re.compile("[\uac00-\ud7a3]")
KANA = re.compile("[\u3040-\u30ff]")


def check(tmp_path: Path, language: str, *more: str) -> list[str]:
    source = tmp_path / f"paper-{language}.md"
    source.write_text(PAPER.format(language=language, label=LABELS[language]), encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1", *more)
    assert code == 1
    return [line for line in err.splitlines() if "error[" in line or line.startswith("    hint:")]


def test_a_korean_paper_gets_korean_messages(tmp_path: Path) -> None:
    lines = check(tmp_path, "ko")
    assert any(line.endswith("error[QB115]: 알 수 없는 레이블 'Anwser'; 'answer'을(를) 뜻했나요?") for line in lines), lines
    assert any(line.endswith("error[QB126]: 정답이 보기 E을(를) 가리키지만 그런 보기가 없습니다") for line in lines), lines
    assert "    hint: '정답: 참' 또는 '정답: 거짓'로 쓰세요 ('정답: O' 또는 '정답: X'도 됩니다)" in lines


def test_a_japanese_paper_gets_japanese_messages_and_no_korean_examples(tmp_path: Path) -> None:
    lines = check(tmp_path, "ja")
    assert any(line.endswith("error[QB126]: 解答が選択肢 E を指していますが、その選択肢はありません") for line in lines), lines
    assert "    hint: 「正解: 正」または「正解: 誤」と書いてください（「正解: O」「正解: X」も可）" in lines
    assert all(KANA.search(line) for line in lines if "error[" in line), lines
    assert not any(HANGUL.search(line) for line in lines), lines


def test_a_chinese_paper_gets_chinese_messages_and_no_korean_examples(tmp_path: Path) -> None:
    lines = check(tmp_path, "zh")
    assert any(line.endswith("error[QB138]: 判断题的答案应为 对, 错, true, false 之一，而不是“maybe”") for line in lines), lines
    assert "    hint: 请写“答案: 对”或“答案: 错”（也可写“答案: O”或“答案: X”）" in lines
    assert not any(HANGUL.search(line) or KANA.search(line) for line in lines), lines


def test_english_is_the_default_and_lang_overrides_the_quiz(tmp_path: Path) -> None:
    english = check(tmp_path, "en")
    assert any(line.endswith("error[QB126]: the answer names option E, which does not exist") for line in english)
    assert not any(HANGUL.search(line) for line in english), english  # hints of an English paper: English examples
    assert any(line.endswith("error[QB126]: the answer names option E, which does not exist") for line in check(tmp_path, "ko", "--lang", "en"))
    assert any("解答が選択肢 E" in line for line in check(tmp_path, "ko", "--lang", "ja"))


def test_an_unknown_lang_is_a_usage_error(tmp_path: Path) -> None:
    code, _, err = run("check", str(tmp_path), "--lang", "xx")
    assert code == 2 and "--lang" in err


def test_machine_reports_stay_in_english(tmp_path: Path) -> None:
    source = tmp_path / "paper.md"
    source.write_text(PAPER.format(language="ko", label="정답"), encoding="utf-8")
    code, out, _ = run("check", str(source), "-j", "1", "--report", "json")
    assert code == 1 and "the answer names option E, which does not exist" in out


@pytest.mark.parametrize("language", ["ko", "ja", "zh"])
def test_every_entry_keeps_the_english_placeholders(language: str) -> None:
    entries = []
    for path in (catalog_path(language), *kind_catalog_paths(language)):
        with path.open("rb") as handle:
            entries += [m for m in read_po(handle) if m.id]
    assert len(entries) >= 30
    for m in entries:
        assert m.string, f"{language}: {m.id!r} is not translated"
        assert sorted(set(placeholders(m.id))) == sorted(set(placeholders(m.string))), (language, m.id, m.string)
        # Babel drops the flag from an entry whose text also holds a literal brace (QB183's "write '\\{'"):
        # the file has it, and the names are still checked above.
        assert "python-brace-format" in m.flags or not placeholders(m.id) or "\\{" in m.id


def test_the_three_catalogs_hold_the_same_messages() -> None:
    ids = {}
    for language in ("ko", "ja", "zh"):
        ids[language] = set()
        for path in (catalog_path(language), *kind_catalog_paths(language)):
            with path.open("rb") as handle:
                ids[language] |= {(path.name, m.context, m.id) for m in read_po(handle) if m.id}
    assert ids["ko"] == ids["ja"] == ids["zh"]
    assert set(messages.languages()) >= {"ko", "ja", "zh"}


@pytest.mark.parametrize("language", ["ko", "ja", "zh"])
def test_every_entry_translates_its_own_english(language: str) -> None:
    # Each whole-message entry, filled with sample values, comes back as its msgstr with them.
    for entry in messages.catalog(language):
        if entry.fragment:
            continue
        names = list(dict.fromkeys(placeholders(entry.msgid)))
        values = {name: f"<{k}>" for k, name in enumerate(names)}
        english = re.sub(r"\{([a-z_]+)\}", lambda m: values[m.group(1)], entry.msgid)
        expected = re.sub(r"\{([a-z_]+)\}", lambda m: values[m.group(1)], entry.msgstr)
        assert translate(english, language) == expected, entry.msgid


def test_a_kind_s_own_catalog_translates_its_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A kind with a module of its own brings its messages in catalogs of its own
    (``kind_<name>.po`` beside the main one), read together with the main catalog."""
    folder = tmp_path / "ko" / "LC_MESSAGES"
    folder.mkdir(parents=True)
    (folder / "qti_builder.po").write_bytes(catalog_path("ko").read_bytes())
    (folder / "kind_sorting.po").write_text(
        'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n'
        '#, python-brace-format\nmsgid "a sorting question needs {count} items to sort"\n'
        'msgstr "정렬 문제에는 정렬할 항목이 {count}개 필요합니다"\n', encoding="utf-8")
    main = next(e for e in messages.catalog("ko") if not e.fragment and not placeholders(e.msgid))
    monkeypatch.setattr(messages, "LOCALES", tmp_path)
    messages.catalog.cache_clear()
    try:
        assert [p.name for p in kind_catalog_paths("ko")] == ["kind_sorting.po"]
        assert translate("a sorting question needs 3 items to sort", "ko") == "정렬 문제에는 정렬할 항목이 3개 필요합니다"
        assert translate(main.msgid, "ko") == main.msgstr  # the main catalog is still read
    finally:
        messages.catalog.cache_clear()


def test_a_value_listing_parts_is_translated_part_by_part() -> None:
    # QB321's scores, each with its own '; ' in parentheses: cut between the scores, not inside one.
    assert translate("Moodle cannot store the scores of question 'q': 35 % (choice A; nearest option 33.33333 %); "
                     "65 % (choices B, C; nearest option 66.66667 %) is not one of its grade options", "ko") == (
        "Moodle은 문항 'q'의 점수를 저장할 수 없습니다: 35 % (보기 A, 가장 가까운 선택지 33.33333 %); "
        "65 % (보기 B, C, 가장 가까운 선택지 66.66667 %)은(는) Moodle의 성적 선택지에 없습니다")
    # A list of fragments (what Canvas's essay question does not carry), in the language's own separator;
    # a list of anything else (the blanks' points) as it is.
    lost = "Canvas: the response format, the word limits are not carried: Canvas's essay question has no such settings (question 'e')"
    assert translate(lost, "ko") == "Canvas: 답안 형식, 단어 수 제한은(는) 옮겨지지 않습니다: Canvas의 서술형 문항에는 그런 설정이 없습니다 (문항 'e')"
    assert translate(lost, "ja").startswith("Canvas: 解答の形式、語数の制限は引き継がれません")
    points = "Canvas: the blanks' own points (2, 1) are not carried: Canvas shares a question's 3 points equally among its blanks (question 'f')"
    assert translate(points, "zh") == "Canvas：各空格自己的分值（2, 1）不会保留：Canvas 把题目的 3 分平均分给各空格（题目“f”）"


def test_a_message_without_an_entry_stays_english() -> None:
    assert translate("something no catalog has", "ko") == "something no catalog has"
    assert translate("option B", "ko") == "option B"  # a fragment is no whole message


@pytest.mark.parametrize("language, label, city", [("ja", "正解", "東京"), ("zh", "答案", "北京"), ("en", "Answer", "Seoul")])
def test_hints_show_examples_in_the_quizs_language(tmp_path: Path, language: str, label: str, city: str) -> None:
    # An untyped one-word answer (QB175) and options without an answer (QB120): the hints' examples
    # are the quiz's own label and words, never Korean ones.
    source = tmp_path / f"short-{language}.md"
    source.write_text(f"---\ntitle: T\nlanguage: {language}\n---\n\n1. Capital? {{#cap}}\n\n{label}: {city}\n\n"
                      "2. Which? {#which}\n\nA) one\nB) two\n", encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1")
    assert code == 1
    hints = [line for line in err.splitlines() if line.startswith("    hint:")]
    assert len(hints) == 2, err
    assert city in hints[0] and f"{label}: B" in hints[1], hints
    assert not any(HANGUL.search(hint) for hint in hints), hints


def test_the_preview_shows_a_quizs_warnings_in_its_language(tmp_path: Path) -> None:
    from lxml import html

    from qti_builder import BuildOptions
    from qti_builder.preview import build_preview

    # A Japanese paper whose stated total its questions miss: the preview lists QB219 in Japanese.
    source = tmp_path / "paper.md"
    source.write_text("---\ntitle: 理科（10点満点）\nlanguage: ja\n---\n\n1. 2 + 2 = ? {#a points=3}\n\nA) 3\nB) 4\n\n正解: B\n",
                      encoding="utf-8")
    build_preview(BuildOptions(sources=[source]), tmp_path / "preview")
    pages = sorted((tmp_path / "preview").glob("*.html"))
    text = " ".join(html.fromstring(p.read_text(encoding="utf-8")).text_content() for p in pages)
    assert "問題用紙には10点満点とありますが" in text, text[:2000]
