"""The language import gives a pasted exam paper (issue 29): read from the paper's prose, not its
code, formulas or links (importers/language.py), in the nine languages of the exam reader. The
language becomes the source's ``language:``, so the xml:lang of every QTI 2.1 item and the
manifest's language, and the true/false labels QTI 2.1 and Canvas show (the only place Canvas's
format carries the quiz's language; Moodle XML carries none: its true/false words are Moodle's own).

Every paper here was written for these tests. Each holds a single-choice question and a
true/false one: what each must become is read off the paper by hand. The papers in German,
French, Spanish, Portuguese and Italian have no labels (``Antwort:``), only an answer key at the
end, as most real papers in those languages: their words alone tell the language.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers.importing import run_import
from helpers.outputs import Outputs, build_all
from lxml import etree

from qti_builder.i18n import TRUE_FALSE
from qti_builder.importers.language import prose, text_language
from qti_builder.importers.quizpage.paper import paper_language

QTI = "{http://www.imsglobal.org/xsd/imsqti_v2p1}"
XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"

#: Per language: a paper, the text of its right option, and whether its true/false answer is true.
PAPERS: dict[str, tuple[str, str, bool]] = {
    "ko": ("""사회 문화 단원 평가
1. 다음 중 사회 집단에 대한 설명으로 옳은 것은?
① 내집단은 소속감을 느끼지 못하는 집단이다
② 준거 집단은 행동의 기준이 되는 집단이다
③ 1차 집단은 형식적인 관계로 이루어진다
④ 공동 사회는 계약으로 맺어진 사회이다
정답: ②
2. 가족은 대표적인 1차 집단이다.
정답: 참
""", "준거 집단은 행동의 기준이 되는 집단이다", True),
    "ja": ("""理科期末試験
1. 次の記述のうち、正しいものを一つ選べ。
ア　植物細胞は細胞壁を持たない
イ　光合成は葉緑体で行われる
ウ　動物細胞は葉緑体を持つ
エ　細胞膜は存在しない
解答：イ
2. 核酸は細胞核内のみに存在する。
解答：誤り
""", "光合成は葉緑体で行われる", False),
    "zh": ("""编程基础期末考试
1. 下面的程序运行后输出的结果是什么？
```python
numbers = [value * value for value in range(5) if value % 2 == 0]
total = sum(numbers)
print(total, len(numbers), numbers[-1])
```
A. 20 3 16
B. 10 2 4
C. 30 5 16
D. 20 2 16
答案：A
2. 列表推导式可以带有条件表达式。
答案：对
""", "20 3 16", True),
    "en": ("""Biology Unit Test
1. Which of the following is the function of the mitochondria in a cell?
A. They store the genetic information
B. They produce most of the energy that the cell can use
C. They build the cell wall
D. They are where the cell divides
Answer: B
2. Ribosomes are found in both plant and animal cells.
Answer: True
""", "They produce most of the energy that the cell can use", True),
    "de": ("""Probeklausur Biologie
1. Welche der folgenden Aussagen über die Zelle ist richtig? Geben Sie die richtige Antwort an.
A. Die Zelle hat keine Membran und kann sich nicht teilen
B. Die Mitochondrien sind die Kraftwerke der Zelle
C. Die Ribosomen sind nicht in der Zelle zu finden
D. Der Zellkern ist immer leer
2. Die DNA ist auch in den Mitochondrien zu finden.

Lösungen
1. B
2. wahr
""", "Die Mitochondrien sind die Kraftwerke der Zelle", True),
    "fr": ("""Évaluation de physique
1. Quelle est la valeur de la vitesse de la lumière dans le vide ? Choisissez la bonne réponse.
A. Elle est environ de trois cents mètres par seconde
B. Elle est environ de trois cent mille kilomètres par seconde
C. Elle dépend de la couleur de la source
D. Elle est nulle dans le vide
2. Le son se propage dans le vide.

Corrigé
1. B
2. faux
""", "Elle est environ de trois cent mille kilomètres par seconde", False),
    "es": ("""Examen de química
1. ¿Cuál de las siguientes sustancias es un elemento de la tabla periódica?
A. El agua que se encuentra en los ríos
B. El oxígeno que hay en el aire
C. La sal de la cocina
D. El azúcar para el café
2. El agua es una mezcla de dos elementos.

Respuestas
1. B
2. falso
""", "El oxígeno que hay en el aire", False),
    "pt": ("""Avaliação de programação
1. Qual das seguintes afirmações sobre uma classe é verdadeira? Escolha a resposta correta.
A. Uma classe não pode ter métodos
B. Uma classe é o modelo a partir do qual são criados os objetos
C. Uma classe é sempre um número inteiro
D. Não é possível criar objetos de uma classe
2. Um objeto é uma instância de uma classe.

Gabarito
1. B
2. verdadeiro
""", "Uma classe é o modelo a partir do qual são criados os objetos", True),
    "it": ("""Verifica di informatica
1. Quale delle seguenti affermazioni sul foglio di calcolo è corretta? Scegli la risposta giusta.
A. Una cella non può contenere una formula
B. La formula della somma di una colonna si scrive con il segno uguale
C. Le righe del foglio sono indicate con le lettere
D. Non è possibile copiare una cella
2. Ogni cella del foglio ha un indirizzo.

Soluzioni
1. B
2. vero
""", "La formula della somma di una colonna si scrive con il segno uguale", True),
}


def _import(tmp_path: Path, name: str, text: str) -> tuple[str, Outputs]:
    """The source import writes of the paper, and that source built into the three targets."""
    paper = tmp_path / name
    paper.write_text(text, encoding="utf-8")
    imported, sink = run_import(paper, "quizpage")
    assert not sink.errors, [d.render() for d in sink.items]
    assert len(imported) == 1
    source = tmp_path / "source.md"
    source.write_text(imported[0].source_text, encoding="utf-8")
    return imported[0].source_text, build_all(tmp_path, source)


@pytest.mark.parametrize("language", list(PAPERS))
def test_a_paper_in_each_language_is_imported_and_built_in_it(tmp_path: Path, language: str) -> None:
    text, right, true = PAPERS[language]
    source, built = _import(tmp_path, f"paper.{language}.txt", text)
    assert f"\nlanguage: {language}\n" in source.split("\n---\n", 1)[0] + "\n"
    assert built.quiz.language == language
    choice, statement = built.quiz.iter_questions()
    assert choice.type == "single_choice" and [c.text for c in choice.choices if c.correct] == [right]
    assert statement.type == "true_false" and statement.answer is true
    # QTI 2.1: every item's xml:lang, and the manifest's language.
    for q in (choice, statement):
        assert built.qti_item(q.id).get(XML_LANG) == language
    manifest = etree.fromstring(built.qti["imsmanifest.xml"])
    assert {e.text for e in manifest.iter() if isinstance(e.tag, str) and e.tag.endswith("}language")} == {language}
    # QTI 2.1 and Canvas also carry it in the true/false question's two choices.
    labels = list(TRUE_FALSE[language])
    assert sorted("".join(c.itertext()).strip() for c in built.qti_item(statement.id).iter(f"{QTI}simpleChoice")) == sorted(labels)
    # Moodle's own true/false type: its answers are the words Moodle shows in the student's own
    # language; the Moodle XML format carries no language of the quiz.
    moodle = next(q for q in built.moodle.iter("question") if q.get("type") != "category" and statement.stem in "".join(q.find("questiontext").itertext()))
    assert moodle.get("type") == "truefalse"
    canvas = next(i for i in built.canvas.iter("item") if statement.stem in "".join(i.find("presentation").itertext()))
    assert sorted(m.text.strip() for m in canvas.iter("mattext") if m.getparent().getparent().tag == "response_label") == sorted(labels)


def test_a_chinese_page_dominated_by_code_is_chinese() -> None:
    text = PAPERS["zh"][0]
    # Most of its letters are the code's: the language is the prose's all the same.
    assert text.count("```") == 2 and "print" not in prose(text) and "`" not in prose(text)
    assert text_language(text) == "zh"
    code_heavy = text.replace("答案：A", "答案：A\n```python\n" + "def helper(values):\n    return [v for v in values]\n" * 30 + "```")
    assert paper_language(code_heavy, code_heavy.split("\n")) == "zh"


def test_formulas_links_and_inline_code_are_not_prose() -> None:
    text = "计算 $x^2 + y^2 = r^2$ 的值，见 https://example.org/the/answer 和 `print(value)`。\n$$\\frac{a}{b}$$"
    kept = prose(text)
    assert "frac" not in kept and "example" not in kept and "print" not in kept and "$" not in kept
    assert "计算" in kept and "的值" in kept


def test_a_japanese_paper_with_many_kanji_is_japanese() -> None:
    text = ("第一問　次の漢字語句の読み方を答えなさい。\n1. 経済成長率\n2. 国内総生産\n3. 貿易収支\n4. 財政赤字\n5. 中央銀行\n"
            "6. 為替相場\n7. 消費者物価指数\n8. 失業率\n9. 金融政策\n10. 公開市場操作\n")
    assert text.count("な") + text.count("さ") + text.count("い") + text.count("の") + text.count("を") + text.count("答") < 12
    assert text_language(text) == "ja"
    assert paper_language(text, text.split("\n")) == "ja"


def test_a_tiny_ambiguous_text_keeps_todays_guess() -> None:
    # Too few words to tell a language: English, as before (and the outline shows it).
    tiny = "Quiz\n1. Paris?\nA. Lyon\nB. Roma\nAnswer: A\n"
    assert text_language(tiny) is None
    assert paper_language(tiny, tiny.split("\n")) == "en"
    # A tiny paper whose labels are French stays French, by its labels, as before.
    labelled = "Quiz\n1. Paris?\nA. Lyon\nB. Roma\nRéponse : A\n"
    assert text_language(labelled) is None
    assert paper_language(labelled, labelled.split("\n")) == "fr"
    # A few Korean characters in a tiny text: Korean, by its script, as before.
    korean = "1. 수도?\n① 서울\n② 부산\n정답: ①\n"
    assert paper_language(korean, korean.split("\n")) == "ko"


def test_a_korean_paper_testing_english_is_korean() -> None:
    text = ("영어 문법 진단 평가\n다음 빈칸에 들어갈 말로 가장 알맞은 것을 고르시오.\n"
            "1. She ____ to school every day because she likes her teachers and friends.\n① go ② goes ③ going ④ gone\n정답: ②\n"
            "2. They have ____ in this city for ten years, and they want to stay here.\n① live ② lives ③ lived ④ living\n정답: ③\n")
    assert text_language(text) == "ko"


def test_the_same_text_gives_the_same_language() -> None:
    for text, _, _ in PAPERS.values():
        assert len({text_language(text) for _ in range(3)}) == 1


def test_front_matter_names_the_language(tmp_path: Path) -> None:
    # The author's word wins over the guess: a paper in German words (English labels, which every
    # language reads) whose front matter says French.
    body = PAPERS["de"][0].split("\n", 1)[1].replace("Antwort:", "Answer:").replace("wahr", "true")
    assert text_language(body) == "de"
    text = "---\ntitle: Klausur\nlanguage: fr\n---\n" + body
    source, built = _import(tmp_path, "klausur.md", text)
    assert "language: fr" in source and built.quiz.language == "fr"


def test_labels_in_a_language_win_over_the_words_of_another() -> None:
    # English prose, Spanish labels: the reader reads the labels of the quiz's language, so the
    # labels name it (else each label would be an error).
    text = ("Final exam\n1. Which of the following is the largest planet that you can see from the Earth?\n"
            "A. Mars\nB. Jupiter\nC. Venus\nRespuesta: B\n2. What is the name of the star at the centre of our system?\n"
            "Respuesta: the Sun\n")
    assert text_language(text) == "en"
    assert paper_language(text, text.split("\n")) == "es"


#: Each format that does not say its quiz's language, with a German quiz in it (written for this test).
GERMAN_IN_OTHER_FORMATS = {
    "quiz.gift": "::F1:: Welche Farbe hat der Himmel an einem klaren Tag und warum ist das so? "
                 "{=blau ~grün ~rot}\n\n::F2:: Die Sonne geht im Osten auf und am Abend im Westen unter. {T}\n",
    "quiz.aiken.txt": "Welche Stadt ist die Hauptstadt von Deutschland und wo liegt sie?\nA. Berlin\nB. München\n"
                      "C. Hamburg\nANSWER: A\n\nWelcher Fluss fließt durch die Stadt Köln und ist der längste?\n"
                      "A. Rhein\nB. Elbe\nC. Donau\nANSWER: A\n",
}


@pytest.mark.parametrize("name", sorted(GERMAN_IN_OTHER_FORMATS))
def test_a_quiz_in_a_format_that_does_not_say_its_language_is_told_by_its_words(tmp_path: Path, name: str) -> None:
    """GIFT and Aiken carry no language: their quiz's prose tells it, as a pasted paper's does (a
    German quiz in them is German), not English by default (before: English, the scripts' count
    seeing only Latin letters)."""
    source = tmp_path / name
    source.write_text(GERMAN_IN_OTHER_FORMATS[name], encoding="utf-8")
    quizzes, sink = run_import(source, "gift" if name.endswith(".gift") else "aiken")
    assert not sink.errors, sink.items
    (quiz,) = [imported.quiz for imported in quizzes]
    assert quiz.language == "de"
