"""Import keeps what the author wrote, and only that: Moodle's own default feedback is left out in
every language Moodle words it, a cloze question keeps the points Moodle gives it, and Moodle's
rich HTML (tables, sized images) becomes Markdown where Markdown has the exact form."""

from __future__ import annotations

import json
import unicodedata
from pathlib import Path

import pytest
from helpers.cli import run


def moodle_file(*questions: str) -> str:
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<quiz>\n'
            '  <question type="category"><category><text>$course$/top/Chemistry</text></category></question>\n'
            + "".join(questions) + "</quiz>\n")


def multichoice(name: str, correct: str, partial: str, incorrect: str, stem: str = "Which is a noble gas?") -> str:
    return f"""  <question type="multichoice">
    <name><text>{name}</text></name>
    <questiontext format="html"><text><![CDATA[{stem if stem.startswith("<") else f"<p>{stem}</p>"}]]></text></questiontext>
    <defaultgrade>1</defaultgrade><idnumber>{name}</idnumber>
    <single>true</single><shuffleanswers>true</shuffleanswers><answernumbering>abc</answernumbering>
    <correctfeedback format="html"><text><![CDATA[{correct}]]></text></correctfeedback>
    <partiallycorrectfeedback format="html"><text><![CDATA[{partial}]]></text></partiallycorrectfeedback>
    <incorrectfeedback format="html"><text><![CDATA[{incorrect}]]></text></incorrectfeedback>
    <answer fraction="100" format="html"><text>Neon</text></answer>
    <answer fraction="0" format="html"><text>Nitrogen</text></answer>
  </question>
"""


def imported(tmp_path: Path, xml: str, *more: str) -> str:
    (tmp_path / "bank.xml").write_text(xml, encoding="utf-8")
    code, _, err = run("import", "bank.xml", "--out", "src", *more, cwd=tmp_path)
    assert code == 0, err
    (source,) = (tmp_path / "src").glob("*.md")
    return source.read_text(encoding="utf-8")


@pytest.mark.parametrize("correct, partial, incorrect", [
    ("<p>Your answer is correct.</p>", "<p>Your answer is partially correct.</p>", "<p>Your answer is incorrect.</p>"),
    ("<p>답이 맞습니다.</p>", "<p>답이 부분적으로 옳습니다.</p>", "<p>답이 틀립니다.</p>"),
    ("<p>Die Antwort ist richtig.</p>", "<p>Die Antwort ist teilweise richtig.</p>", "<p>Die Antwort ist falsch.</p>"),
    ("<p>あなたの答えは正解です。</p>", "<p>あなたの答えは部分的に正解です。</p>", "<p>あなたの答えは正しくありません。</p>"),
    ("Votre réponse est correcte", "Votre réponse est partiellement correcte.", "<p>Votre réponse est incorrecte.</p>"),
    ("<p>Twoja odpowiedź jest poprawna.</p>", "<p>Twoja odpowiedź jest częściowo poprawna.</p>", "<p>Twoja odpowiedź jest niepoprawna.</p>"),
    # French as another release's pack words the partly correct one; Belarusian and Indonesian.
    ("<p>Votre réponse est correcte.</p>", "<p>Votre réponse est en partie correcte.</p>", ""),
    ("<p>Вашы адказ слушны.</p>", "<p>Вашы адказ часткова слушны.</p>", "<p>Вашы адказ хібны.</p>"),
    ("<p>Jawaban anda benar.</p>", "<p>Jawaban anda separuh benar.</p>", "<p>Jawaban anda tidak benar.</p>"),
    # Bulgarian (the 4.4 pack), Persian (5.0), Hebrew (4.1), traditional Chinese (5.0), Vietnamese
    # (3.11), as their question.php word them; the Vietnamese once with its letters decomposed.
    ("<p>Вашият отговор е верен.</p>", "<p>Вашият отговор отчасти е верен.</p>", "<p>Вашият отговор не е верен.</p>"),
    ("<p>پاسخ شما صحیح می باشد</p>", "<p>پاسخ شما تا حدودی صحیح است</p>", "<p>پاسخ شما صحیح نیست</p>"),
    ("<p>תשובתך נכונה.</p>", "<p>תשובתך נכונה חלקית.</p>", "<p>תשובתך אינה נכונה.</p>"),
    ("<p>你答對了!</p>", "<p>你的答案是部分答對</p>", "<p>你答錯了!</p>"),
    ("<p>Câu trả lời của bạn đúng</p>", "<p>Câu trả lời của bạn đúng một phần.</p>", "<p>Câu trả lời của bạn sai.</p>"),
    # Italian and Basque partly correct as older packs (2.6; 3.8) word it.
    ("<p>Risposta corretta.</p>", "<p>Risposta parzialmente corretta.</p>", "<p>Risposta errata.</p>"),
    ("<p>Zure erantzuna zuzena da.</p>", "<p>Zure erantzuna zuzena da neurri batean.</p>", "<p>Zure erantzuna ez da zuzena</p>"),
    (unicodedata.normalize("NFD", "Câu trả lời của bạn đúng"), unicodedata.normalize("NFD", "Câu trả lời của bạn đúng một phần."),
     unicodedata.normalize("NFD", "<p>Câu trả lời của bạn sai.</p>")),
])
def test_moodles_default_feedback_is_not_the_authors(tmp_path: Path, correct: str, partial: str, incorrect: str) -> None:
    source = imported(tmp_path, moodle_file(multichoice("gas", correct, partial, incorrect)))
    assert "feedback" not in source.lower()
    # Nothing of it is then a loss of the Canvas package.
    code, out, _ = run("check", "src", "--report", "json", cwd=tmp_path)
    canvas = next(o for o in json.loads(out)["quizzes"][0]["outputs"] if o["format"] == "canvas")
    assert code == 0 and canvas["losses"] == []


def test_the_authors_own_feedback_is_kept(tmp_path: Path) -> None:
    source = imported(tmp_path, moodle_file(multichoice(
        "gas", "<p>Your answer is correct: neon is in group 18.</p>", "<p>Your answer is partially correct.</p>",
        "<p>Look at group 18.</p>")))
    assert "Correct feedback: Your answer is correct: neon is in group 18." in source
    assert "Incorrect feedback: Look at group 18." in source
    assert "partially correct" not in source  # the one default among them


def test_rich_moodle_html_keeps_markdown_around_what_has_no_markdown_form(tmp_path: Path) -> None:
    """A table with Moodle's classes and an image with its size have no exact Markdown form: each
    stays HTML as a block of its own, and the text around them is Markdown, not one line of HTML."""
    stem = ('<p>Look at the <strong>table</strong>:</p>'
            '<table class="table table-striped"><thead><tr><th>Gas</th><th>Group</th></tr></thead>'
            '<tbody><tr><td>Neon</td><td>18</td></tr></tbody></table>'
            '<p><img src="https://example.edu/cell.png" alt="A cell" width="300" height="200" class="img-fluid"></p>'
            '<ul><li>Which is <em>noble</em>?</li></ul>')
    plain_table = "<table><thead><tr><th>Gas</th></tr></thead><tbody><tr><td>Neon</td></tr></tbody></table><p>Which?</p>"
    source = imported(tmp_path, moodle_file(multichoice("rich", "", "", "", stem=stem), multichoice("plain", "", "", "", stem=plain_table)))
    assert "1. Look at the **table**: {#rich title=rich}\n\n   <table class=\"table table-striped\"><thead>" in source
    assert '\n\n   <p><img src="https://example.edu/cell.png" alt="A cell" width="300" height="200" class="img-fluid"></p>\n\n' in source
    assert "\n\n   - Which is *noble*?\n" in source
    assert "2. | Gas | {#plain title=plain}\n   |---|\n   | Neon |\n\n   Which?" in source  # no classes: a Markdown table
    # Built again, Moodle gets the same table and image.
    assert run("build", "src", "--format", "moodle", cwd=tmp_path)[0] == 0
    (built,) = (tmp_path / "dist").glob("*.moodle.xml")
    xml = built.read_text(encoding="utf-8")
    assert '<table class="table table-striped">' in xml and 'width="300" height="200"' in xml


def test_answer_numbering_none_survives_import_and_build(tmp_path: Path) -> None:
    """Moodle's "no numbering" of a multiple-choice question's options stays so: the source says
    numbering=none, and the build writes answernumbering none again (not ABCD)."""
    question = multichoice("plain", "", "", "").replace("<answernumbering>abc</answernumbering>",
                                                        "<answernumbering>none</answernumbering>")
    numbered = multichoice("lettered", "", "", "", stem="Which is a metal?")
    source = imported(tmp_path, moodle_file(question, numbered))
    assert "{#plain title=plain numbering=none}" in source and "{#lettered title=lettered}" in source
    assert run("build", "src", "--format", "moodle", cwd=tmp_path)[0] == 0
    (built,) = (tmp_path / "dist").glob("*.moodle.xml")
    from lxml import etree

    root = etree.parse(str(built)).getroot()
    numbering = {q.findtext("idnumber"): q.findtext("answernumbering") for q in root.findall("question") if q.get("type") == "multichoice"}
    assert numbering == {"plain": "none", "lettered": "ABCD"}
