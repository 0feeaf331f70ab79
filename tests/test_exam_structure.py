"""A paper's structure is read as what it is, in both routes, and never into another question
(issue 29): section headings in the numbering systems of the nine languages (``一、``,
``四、简答题（每题5分，共10分）`` right after ``答案：×``, ``【２】`` right after ``【解答】``,
``Part III. Short Answer (3 pts each)`` right after an explanation, ``Teil 2:``, ``PARTE II.``,
``Partie B :``, ``Parte 2 –``, ``Sezione B -``), a points rule on the line under a heading, numbered
instructions (``注意事项：`` / ``※ 수험생 유의사항`` then ``1. …``), a bonus question (``Bonus (2
points): …``) and a closing mark (``- 끝 -``, ``以上``, ``- End of Exam -``); two-column matching tables
(``7) ____ Mitosis⇥B. …``, one choice question per item); numbered tasks (``Aufgabe 2``, ``Exercice 2``,
``Task 1``) as headings over their questions or as questions; and pasted pages with the quirks of
real papers (a bold question line, checked options ``- [x] B. 0``, questions with no answer).

The papers in tests/fixtures/exam/ were written for these tests as teachers paste them. Each is
read twice: built as it is (``build paper.md``), and pasted without its front matter, its title on
the first line, then imported and built (``import paper.txt``). What each question must become is
read off the fixture by hand and checked in all three built outputs: QTI 2.1 (weights, and scores
by pyslet), Moodle XML (type, grade, the answers at 100 %) and Canvas (type, points, the answers a
full score is set for).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from helpers.cli import run
from helpers.importing import pasted, run_import
from helpers.outputs import Outputs, build_all
from helpers.qti21_engine import score_item

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz
from qti_builder.readers.markdown import syntax as S
from qti_builder.readers.markdown.blocks import Scanner

PAPERS = ROOT / "tests" / "fixtures" / "exam"

#: Per paper: its sections' titles as students see them, and per question its type, points and
#: answer (the correct options' texts, the true/false marks students choose with the right one
#: first, the accepted answers, or the model answer's start).
EXPECTED: dict[str, tuple[list[str], list[tuple[str, float, object]]]] = {
    "qimo.zh.md": (["一、选择题", "二、判断题", "四、简答题"], [
        ("single_choice", 3, ["线粒体"]),
        ("single_choice", 3, ["叶绿体"]),
        ("true_false", 2, ("√", "×")),
        ("true_false", 2, ("×", "√")),
        ("essay", 5, "使亲代细胞的染色体平均分配"),
    ]),
    "kimatsu.ja.md": (["【１】次の問いに記号で答えなさい。", "【２】次の文が正しければ○、誤りならば×で答えなさい。"], [
        ("single_choice", 2, ["水素"]),
        ("single_choice", 2, ["二酸化炭素"]),
        ("true_false", 3, ("○", "×")),
        ("true_false", 3, ("×", "○")),
    ]),
    "final.en.md": (["Part I. Multiple Choice", "Part III. Short Answer"], [
        ("single_choice", 2, ["Mitochondrion"]),
        ("short_answer", 3, ["mitosis"]),
        ("short_answer", 3, ["oxygen", "O2"]),
        ("short_answer", 2, ["DNA"]),  # the bonus question, worth what it says
    ]),
    "gimal.ko.md": (["Ⅰ. 객관식", "Ⅱ. 단답형"], [
        ("single_choice", 3, ["100℃"]),
        ("single_choice", 3, ["달"]),
        ("short_answer", 4, ["엽록체"]),
    ]),
    "klausur.de.md": (["Teil 1: Multiple Choice", "Teil 2: Kurzantwort"], [
        ("single_choice", 2, ["Zellkern"]),
        ("short_answer", 3, ["Mitose"]),
    ]),
    "examen.es.md": (["PARTE I. Opción múltiple", "PARTE II. Verdadero o falso"], [
        ("single_choice", 2, ["Cloroplasto"]),
        ("true_false", 1, ("Falso", "Verdadero")),
    ]),
    "prova.pt.md": (["Parte 1 – Múltipla escolha", "Parte 2 – Verdadeiro ou falso"], [
        ("single_choice", 2, ["Júpiter"]),
        ("true_false", 1, ("Falso", "Verdadeiro")),
    ]),
    "verifica.it.md": (["Sezione A - Scelta multipla", "Sezione B - Vero o falso"], [
        ("single_choice", 2, ["Ossigeno"]),
        ("true_false", 1, ("Vero", "Falso")),
    ]),
    "devoir.fr.md": (["Partie A : QCM", "Partie B : Vrai ou faux"], [
        ("single_choice", 2, ["Le cœur"]),
        ("true_false", 1, ("Vrai", "Faux")),
    ]),
    # A two-column matching table: each item a choice question of its own, worth the section's
    # points, the table's definitions its options, its letter from the key at the end.
    "matching.en.md": (["Part I. Multiple Choice", "Part II. Matching"], [
        ("single_choice", 2, ["Mitochondrion"]),
        ("single_choice", 2, ["Division that makes two identical cells"]),
        ("single_choice", 2, ["Division that makes four different cells"]),
        ("single_choice", 2, ["Movement of water across a membrane"]),
        ("single_choice", 2, ["Movement of particles from high to low concentration"]),
    ]),
    # The same, its letters under each row ('Antwort: C').
    "zuordnung.de.md": (["Teil 1: Zuordnung"], [
        ("single_choice", 3, ["Enthält die Erbinformation"]),
        ("single_choice", 3, ["Ort der Fotosynthese"]),
        ("single_choice", 3, ["Ort der Zellatmung"]),
    ]),
}
#: The marks and words that say "true" in these papers.
MARKS = ("√", "×", "○")
TRUE_MARKS = ("√", "○", "Verdadero", "Verdadeiro", "Vero", "Vrai")
#: Lines of each paper's frame that no student sees in a question, an option or an answer.
FRAME = ("- 完 -", "以上", "- End of Exam -", "- 끝 -", "Ende", "Fin del examen", "Fim da prova", "Fine", "Fin",
         "考试时间60分钟", "답안지에 이름을 쓰시오", "（每题2分，共4分）", "Bonus")


def by_route(route: str, tmp_path: Path, body: str, language: str) -> Path:
    """The paper's body as a source (``build``: with its front matter) or as pasted text turned into
    a source by ``import`` (which must say nothing): what the tests then build."""
    if route == "build":
        source = tmp_path / "paper.md"
        source.write_text(f"---\ntitle: T\nlanguage: {language}\n---\n\n{body}", encoding="utf-8")
        return source
    text = tmp_path / "paper.txt"
    text.write_text("T\n\n" + body, encoding="utf-8")
    code, _, err = run("import", str(text), "--out", str(tmp_path / "source"))
    assert code == 0 and err == "", err
    (source,) = (tmp_path / "source").glob("*.md")
    return source


@pytest.fixture(scope="module", params=[(name, route) for name in EXPECTED for route in ("build", "import")],
                ids=lambda p: f"{p[0]}-{p[1]}")
def paper(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Outputs, str]:
    name, route = request.param
    folder = tmp_path_factory.mktemp(name.split(".")[0] + route)
    source = PAPERS / name
    if route == "import":
        code, out, err = run("import", str(pasted(source, folder)), "--out", str(folder / "source"))
        assert code == 0 and err == "", err  # not one warning
        (source,) = (folder / "source").glob("*.md")
    return build_all(folder, source), name


def _true_false_right(built: Outputs, qid: str, marks: tuple[str, str]) -> str:
    choices = built.qti_choices(qid)
    assert sorted(choices) == sorted(marks), choices
    return choices[marks[0]]


def test_types_points_and_answers(paper: tuple[Outputs, str]) -> None:
    built, name = paper
    sections, expected = EXPECTED[name]
    questions = list(built.quiz.iter_questions())
    assert [(q.type, q.points) for q in questions] == [(kind, points) for kind, points, _ in expected]
    assert [s.title for _, s in built.quiz.iter_sections()] == sections
    for q, (kind, _, answer) in zip(questions, expected):
        if kind == "single_choice":
            assert [c.text for c in q.choices if c.correct] == answer
        elif kind == "true_false":
            assert q.answer is (answer[0] in TRUE_MARKS)  # type: ignore[index]
        elif kind == "short_answer":
            assert [a.text for a in q.answers] == answer
        else:
            assert q.model_answer.startswith(answer)  # type: ignore[arg-type]


def test_qti_weights_and_scores(paper: tuple[Outputs, str]) -> None:
    built, name = paper
    for q, (kind, points, answer) in zip(built.quiz.iter_questions(), EXPECTED[name][1]):
        raw = built.qti_raw(q.id)
        assert built.qti_weight(q.id) == points
        if kind == "single_choice":
            choices = built.qti_choices(q.id)
            right = choices[answer[0]]  # type: ignore[index]
            assert score_item(raw, right)["SCORE"] == points
            assert score_item(raw, next(i for i in choices.values() if i != right))["SCORE"] == 0
        elif kind == "true_false":
            right = _true_false_right(built, q.id, answer)  # type: ignore[arg-type]
            assert score_item(raw, right)["SCORE"] == points
            assert score_item(raw, built.qti_choices(q.id)[answer[1]])["SCORE"] == 0  # type: ignore[index]
        elif kind == "short_answer":
            for accepted in answer:  # type: ignore[union-attr]
                assert score_item(raw, accepted)["SCORE"] == points
            assert score_item(raw, "xyz")["SCORE"] == 0


MOODLE_TYPES = {"single_choice": "multichoice", "true_false": "multichoice", "short_answer": "shortanswer", "essay": "essay"}
CANVAS_TYPES = {"single_choice": "multiple_choice_question", "true_false": "multiple_choice_question",
                "short_answer": "short_answer_question", "essay": "essay_question"}


def test_moodle_and_canvas(paper: tuple[Outputs, str]) -> None:
    built, name = paper
    for q, (kind, points, answer) in zip(built.quiz.iter_questions(), EXPECTED[name][1]):
        question = built.moodle_question(q.id)
        words = kind == "true_false" and answer[0] not in MARKS  # type: ignore[index]
        # True/false in words is Moodle's own true/false type (which words it in the student's language).
        assert question.get("type") == ("truefalse" if words else MOODLE_TYPES[kind])
        assert float(question.findtext("defaultgrade")) == points
        right = [text for text, fraction in built.moodle_answers(q.id).items() if fraction == "100"]
        meta = built.canvas_meta(q.id)
        assert meta["question_type"] == CANVAS_TYPES[kind] and float(meta["points_possible"]) == points
        if kind == "essay":
            assert answer in (question.findtext("graderinfo/text") or "")
            continue
        wanted = [answer[0]] if kind == "true_false" else answer
        assert right == (["true" if answer[0] in TRUE_MARKS else "false"] if words else wanted)  # type: ignore[index]
        assert sorted(built.canvas_correct(q.id)) == sorted(wanted)  # type: ignore[arg-type]


def test_the_frame_is_in_no_question(paper: tuple[Outputs, str]) -> None:
    built, _ = paper
    for q in built.quiz.iter_questions():
        texts = [q.stem, q.passage or "", q.feedback.general or "", getattr(q, "model_answer", "") or ""]
        texts += [c.text for c in getattr(q, "choices", [])] + [a.text for a in getattr(q, "answers", [])]
        texts += [built.qti_text(q.id, "stem"), built.moodle_text(q.id), built.canvas_text(q.id)]
        for text in texts:
            for line in text.split("\n"):
                assert line.strip() not in FRAME and not any(f in line for f in FRAME if len(f) > 4), (q.id, line)


# -- every exam fixture: no structure line inside an answer, explanation or model answer ---------------

EXAM_FIXTURES = sorted([ROOT / "tests" / "fixtures" / "exam-ko.md", *PAPERS.glob("*.md")])
PASTED_FIXTURES = sorted((ROOT / "tests" / "fixtures" / "import" / "exam").glob("*.txt"))


def _label_texts(quiz: object) -> list[tuple[str, str]]:
    """Each question's answers, explanation, feedback and model answer, by question id."""
    found: list[tuple[str, str]] = []
    for q in quiz.iter_questions():  # type: ignore[attr-defined]
        texts = [q.feedback.general, q.feedback.correct, q.feedback.incorrect, q.feedback.partially_correct,
                 getattr(q, "model_answer", None), getattr(q, "grading", None),
                 getattr(q, "true_feedback", None), getattr(q, "false_feedback", None)]
        texts += [a.text for a in getattr(q, "answers", []) if isinstance(getattr(a, "text", None), str)]
        texts += [c.feedback for c in getattr(q, "choices", [])]
        found += [(q.id, line) for text in texts if isinstance(text, str) for line in text.split("\n")]
    return found


@pytest.mark.parametrize("source", EXAM_FIXTURES, ids=lambda p: p.name)
def test_no_label_block_of_a_source_holds_a_structure_line(source: Path) -> None:
    lines = source.read_text(encoding="utf-8").split("\n")
    start = lines.index("---", 1) + 1
    sink = DiagnosticSink()
    front = "\n".join(lines[:start])
    language = next((line.split(":", 1)[1].strip() for line in front.split("\n") if line.startswith("language:")), "en")
    _, sections = Scanner(S.without_invisible_html(lines), str(source), sink, language).scan(start)
    assert not sink.errors, [d.render() for d in sink.errors]
    stack, blocks = list(sections), 0
    while stack:
        section = stack.pop()
        stack += section.children
        for question in section.questions:
            for label in question.labels:
                blocks += 1
                for line in label.block.lines[1:]:
                    assert S.structure(line) is None, (source.name, label.line, line)
    assert blocks
    read = read_quiz(source, DiagnosticSink())
    assert read is not None
    assert [(qid, line) for qid, line in _label_texts(read[0]) if S.structure(line)] == []


@pytest.mark.parametrize("paper_text", PASTED_FIXTURES + [None], ids=lambda p: p.name if p else "papers-pasted")
def test_no_imported_answer_or_explanation_holds_a_structure_line(paper_text: Path | None, tmp_path: Path) -> None:
    inputs = [paper_text] if paper_text else [pasted(p, tmp_path) for p in sorted(PAPERS.glob("*.md"))]
    texts = []
    for path in inputs:
        quizzes, sink = run_import(path)
        assert not sink.errors and len(quizzes) == 1, [d.render() for d in sink.items]
        texts += _label_texts(quizzes[0].quiz)
    assert texts and [(qid, line) for qid, line in texts if S.structure(line)] == []


# -- located errors where a structure line would have been read into an answer -----------------------

SLIPS = [
    # (language, the paper's body, the line of the error in the source, its code)
    ("zh", "1. 地球是圆的。\n答案：√\n（每题4分，共24分。）\n\n2. 水是液体。\n答案：√\n", 3, "QB154"),
    ("en", "1. Which is a gas?\nA) Oxygen\nB) Iron\nAnswer: A\nAnswer Key\n\n2. Which is a metal?\nA) Oxygen\nB) Iron\n"
           "Answer: B\n", 5, "QB154"),
    ("ko", "1. 설명하시오.\n모범답안: 광합성은 빛 에너지를 쓴다.\n\n- 끝 -\n\n수고하셨습니다 여러분\n", 6, "QB155"),
]


@pytest.mark.parametrize("language, body, line, code", SLIPS, ids=[s[3] + "-" + s[0] for s in SLIPS])
def test_a_structure_line_after_an_answer_is_a_located_error(language: str, body: str, line: int, code: str,
                                                             tmp_path: Path) -> None:
    """Built or pasted and imported, the same error at the same line of what was written (one reader)."""
    source = tmp_path / "paper.md"
    source.write_text(f"---\ntitle: T\nlanguage: {language}\n---\n{body}", encoding="utf-8")
    result, out, err = run("check", str(source))
    assert result == 1 and f"paper.md:{line + 4}:1: error[{code}]" in err, err
    text = tmp_path / "paper.txt"
    text.write_text("T\n\n" + body, encoding="utf-8")
    quizzes, sink = run_import(text)
    assert [(d.code, d.span.line, d.span.column) for d in sink.errors] == [(code, line + 2, 1)]


# -- points as papers write them ---------------------------------------------------------------------

POINTS_CASES = [
    # (language, the paper's body, each question's points, what must be out of its text)
    ("zh", "一、选择题（每题4分，共24分。每小题只有一个正确答案）\n\n1. 1+1=？\nA. 1\nB. 2\n答案：B\n", [4], "共24分"),
    ("zh", "二、判断题（每空1分）\n\n1. 水在常温下是液体。\n答案：√\n", [1], "每空"),
    ("zh", "二、判断题\n（每题2分，共4分）\n\n1. 水在常温下是液体。\n答案：√\n\n2. 铁是气体。\n答案：×\n", [2, 2], "每题"),
    ("ko", "Ⅰ. 객관식 (각 3점, 총 15점)\n\n1. 물의 화학식은?\n① CO2 ② H2O ③ O2\n정답: ②\n", [3], "총 15점"),
    ("en", "Part II. Multiple choice (4 pts each)\n\n1. Which is a metal?\nA) Iron\nB) Oxygen\nAnswer: A\n", [4], "pts"),
    ("zh", "三、选择题\n\n15．（10分）下列哪个是金属？\nA. 铁\nB. 氧\n答案：A\n", [10], "10分"),
    ("ja", "【１】次の問いに答えなさい。\n\n1. 金属はどれか。（完答３点）\nア．鉄\nイ．酸素\n【解答】ア\n", [3], "完答"),
    ("ja", "【１】次の問いに答えなさい。\n\n1. 陽極から（　ａ　）、陰極から（　ｂ　）が発生する。（各３点）\n【解答】ａ 酸素　ｂ 水素\n", [6], "各"),
]


@pytest.mark.parametrize("route", ["build", "import"])
@pytest.mark.parametrize("language, body, points, marker", POINTS_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(POINTS_CASES)])
def test_points_as_papers_write_them(language: str, body: str, points: list[float], marker: str, route: str,
                                     tmp_path: Path) -> None:
    source = by_route(route, tmp_path, body, language)
    built = build_all(tmp_path, source)
    questions = list(built.quiz.iter_questions())
    assert [q.points for q in questions] == points
    for q, worth in zip(questions, points):
        assert built.qti_weight(q.id) == worth
        assert float(built.moodle_question(q.id).findtext("defaultgrade")) == worth
        assert float(built.canvas_meta(q.id)["points_possible"]) == worth
        for shown in (built.qti_text(q.id, "stem"), built.moodle_text(q.id), built.canvas_text(q.id)):
            assert marker not in shown and "（" not in shown, shown


# -- answer keys anywhere, read by build as well as import ---------------------------------------------

KEY_CASES = [
    # (language, the paper's body, each question's (type, right option text or truth))
    ("ko", "1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n2. 지구의 위성은?\n① 화성 ② 금성 ③ 목성 ④ 달\n\n정답 1.② 2.④\n",
     [("single_choice", "100℃"), ("single_choice", "달")]),
    ("ko", "1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n2. 얼음은 물에 뜬다.\n\n[정답]\n1. ②  2. O\n",
     [("single_choice", "100℃"), ("true_false", True)]),
    ("ko", "1. 물의 끓는점은?\n① 0℃ ② 100℃ ③ 50℃\n\n2. 지구의 위성은?\n① 달 ② 화성\n\n[정답]\n1-③\t2-①\n",
     [("single_choice", "50℃"), ("single_choice", "달")]),
    ("en", "Part I. Multiple Choice (2 pts each)\n\n1. Which is a gas?\na) Iron\nb) Oxygen\n\n2. Which is a metal?\na) Iron\n"
           "b) Oxygen\n\nAnswer Key\n1. b\n2. a\n\nPart II. True or false (1 point each)\n\n1. Water is wet.\n\n"
           "2. Fire is cold.\n\nAnswers: 1. True 2. False\n",
     [("single_choice", "Oxygen"), ("single_choice", "Iron"), ("true_false", True), ("true_false", False)]),
]


@pytest.mark.parametrize("route", ["build", "import"])
@pytest.mark.parametrize("language, body, expected", KEY_CASES, ids=[f"{c[0]}-{i}" for i, c in enumerate(KEY_CASES)])
def test_answer_keys_as_papers_print_them(language: str, body: str, expected: list[tuple[str, object]], route: str,
                                          tmp_path: Path) -> None:
    source = by_route(route, tmp_path, body, language)
    built = build_all(tmp_path, source)
    questions = list(built.quiz.iter_questions())
    assert [q.type for q in questions] == [kind for kind, _ in expected]
    for q, (kind, right) in zip(questions, expected):
        raw, choices = built.qti_raw(q.id), built.qti_choices(q.id)
        answers = built.moodle_answers(q.id)
        if kind == "single_choice":
            assert [c.text for c in q.choices if c.correct] == [right]
            assert score_item(raw, choices[right])["SCORE"] == q.points  # type: ignore[index]
            assert [t for t, f in answers.items() if f == "100"] == [right]
            assert built.canvas_correct(q.id) == [right]
        else:
            assert q.answer is right
            word = next(t for t in choices if (t in ("O", "True", "참")) is right)
            assert score_item(raw, choices[word])["SCORE"] == q.points
            assert [t for t, f in answers.items() if f == "100"] in ([word], ["true" if right else "false"])
            assert built.canvas_correct(q.id) == [word]
    # The key's lines are no question's text, and no student reads them.
    for q in questions:
        for shown in (built.qti_text(q.id, "stem"), built.moodle_text(q.id), built.canvas_text(q.id)):
            assert "정답" not in shown and "Answer" not in shown and "1." not in shown, shown


# -- short answers: brackets, quotes and code hold one answer; a star is a wildcard only beside a word -----

@pytest.mark.parametrize("route", ["build", "import"])
def test_brackets_and_code_hold_one_answer_and_a_star_is_literal(route: str, tmp_path: Path) -> None:
    body = ("Ⅲ. 단답형 (각 2점)\n\n1. 리스트 [1, 2, 3, 4]에서 짝수만 골라 리스트로 쓰시오.\n정답: [2, 4]\n\n"
            "2. a와 b를 곱하는 파이썬 식을 쓰시오.\n정답: `a * b`\n\n3. 세포핵을 영어로 쓰시오.\n정답: nucleus, nucl*\n")
    source = by_route(route, tmp_path, body, "ko")
    built = build_all(tmp_path, source)
    brackets, code_answer, wildcard = built.quiz.iter_questions()
    assert [a.text for a in brackets.answers] == ["[2, 4]"]
    assert [a.text for a in code_answer.answers] == ["a \\* b"]  # the model's literal star
    assert [a.text for a in wildcard.answers] == ["nucleus", "nucl*"]
    assert score_item(built.qti_raw(brackets.id), "[2, 4]")["SCORE"] == 2
    assert score_item(built.qti_raw(brackets.id), "[2")["SCORE"] == 0
    assert score_item(built.qti_raw(code_answer.id), "a * b")["SCORE"] == 2
    assert score_item(built.qti_raw(code_answer.id), "a xyz b")["SCORE"] == 0
    assert score_item(built.qti_raw(wildcard.id), "nucleolus")["SCORE"] == 2
    # Moodle: '*' is its wildcard, '\*' the star; Canvas has no wildcards: the star as typed.
    assert list(built.moodle_answers(brackets.id)) == ["[2, 4]"]
    assert list(built.moodle_answers(code_answer.id)) == ["a \\* b"]
    assert built.canvas_correct(brackets.id) == ["[2, 4]"]
    assert built.canvas_correct(code_answer.id) == ["a * b"]


# -- labels without their colon, where the rest of the line can only be an answer ---------------------

@pytest.mark.parametrize("route", ["build", "import"])
def test_labels_without_a_colon(route: str, tmp_path: Path) -> None:
    body = ("1. 물의 끓는점은?\n① 0℃ ② 100℃ ③ 50℃\n정답 ②\n해설\n1기압에서 물은 100℃에서 끓는다.\n\n"
            "2. 지구의 위성은?\n① 달 ② 화성\n(정답) ①\n\n3. 얼음은 물에 뜬다.\n정답=O\n\n"
            "4. 짝수를 모두 고르면?\n① 1 ② 2 ③ 3 ④ 4\n정답 ②, ④\n")
    source = by_route(route, tmp_path, body, "ko")
    built = build_all(tmp_path, source)
    boiling, moon, ice, even = built.quiz.iter_questions()
    assert [c.text for c in boiling.choices if c.correct] == ["100℃"]
    assert boiling.feedback.general == "1기압에서 물은 100℃에서 끓는다."
    assert [c.text for c in moon.choices if c.correct] == ["달"]
    assert (ice.type, ice.answer) == ("true_false", True)
    assert (even.type, [c.text for c in even.choices if c.correct]) == ("multiple_response", ["2", "4"])
    for q, right in ((boiling, "100℃"), (moon, "달"), (ice, "O")):
        assert score_item(built.qti_raw(q.id), built.qti_choices(q.id)[right])["SCORE"] == q.points
        assert [t for t, f in built.moodle_answers(q.id).items() if f == "100"] == [right]
        assert built.canvas_correct(q.id) == [right]
    assert "끓는다" in (built.moodle_question(boiling.id).findtext("generalfeedback/text") or "")
    for q in (boiling, moon, ice, even):
        for shown in (built.qti_text(q.id, "stem"), built.moodle_text(q.id), built.canvas_text(q.id)):
            assert "정답" not in shown and "해설" not in shown, shown


# -- true/false with a leading blank, or marked √/× ---------------------------------------------------

TRUE_FALSE_CASES = [
    ("en", "Part II. True or False (1 point each)\n\n3) ____ Water boils at 100 °C at sea level.\nAnswer: T\n\n"
           "4) ____ The sun orbits the Earth.\nAnswer: F\n", [True, False], ("True", "False"), "Water boils at 100 °C"),
    ("zh", "二、判断题（每题2分）\n\n1. 水在常温下是液体。\n答案：√\n\n2. 铁是气体。\n答案：×\n", [True, False], ("√", "×"), "水在常温下是液体。"),
]


@pytest.mark.parametrize("route", ["build", "import"])
@pytest.mark.parametrize("language, body, truths, marks, stem", TRUE_FALSE_CASES, ids=[c[0] for c in TRUE_FALSE_CASES])
def test_true_false_as_papers_mark_it(language: str, body: str, truths: list[bool], marks: tuple[str, str], stem: str,
                                      route: str, tmp_path: Path) -> None:
    source = by_route(route, tmp_path, body, language)
    built = build_all(tmp_path, source)
    questions = list(built.quiz.iter_questions())
    assert [(q.type, q.answer) for q in questions] == [("true_false", t) for t in truths]
    assert questions[0].stem.startswith(stem)  # the answer space is no part of the statement
    for q, truth in zip(questions, truths):
        choices = built.qti_choices(q.id)
        assert sorted(choices) == sorted(marks)
        right = marks[0] if truth else marks[1]
        assert score_item(built.qti_raw(q.id), choices[right])["SCORE"] == q.points
        assert score_item(built.qti_raw(q.id), choices[marks[1] if truth else marks[0]])["SCORE"] == 0
        moodle = built.moodle_question(q.id)
        right_moodle = [t for t, f in built.moodle_answers(q.id).items() if f == "100"]
        assert right_moodle == ([right] if moodle.get("type") == "multichoice" else ["true" if truth else "false"])
        assert built.canvas_correct(q.id) == [right]
        assert "____" not in built.qti_text(q.id, "stem") and "____" not in built.canvas_text(q.id)


# -- Japanese and Chinese forms ------------------------------------------------------------------------

JA_FORMS = ("【１】次の問いに答えなさい。\n\n1. 水の密度は何 g/cm³ か。{type}\n【解答】１．２５\n\n"
            "2. 次のうち金属をすべて選べ。\nア　鉄\nイ　酸素\nウ　銅\nエ　窒素\n【解答】ア・ウ\n\n"
            "3. 次の出来事を古い順に並べよ。\nア　鎌倉幕府\nイ　江戸幕府\nウ　平安京\nエ　室町幕府\n【解答】ウ→ア→エ→イ\n")


def canvas_required(built: Outputs, qid: str) -> list[str]:
    """The options a Canvas multiple-answers item requires for its full score (not those it forbids)."""
    item = built.canvas_item(qid)
    labels = {label.get("ident"): "".join(label.itertext()).strip() for label in item.iter("response_label")}
    full = next(c for c in item.iter("respcondition") if c.findtext("setvar") == "100")
    return sorted(labels[v.text] for v in full.iter("varequal") if v.getparent().tag != "not")


@pytest.mark.parametrize("route", ["build", "import"])
def test_japanese_forms(route: str, tmp_path: Path) -> None:
    """Full-width digits in a number, options marked 'ア' and a full-width space, several answers
    'ア・ウ', an order of options 'ウ→ア→エ→イ'."""
    if route == "build":
        source = tmp_path / "paper.md"
        source.write_text("---\ntitle: T\nlanguage: ja\n---\n\n" + JA_FORMS.replace("{type}", " {type=numerical}"), encoding="utf-8")
        built = build_all(tmp_path, source)
        number, metals, order = built.quiz.iter_questions()
        assert (order.type, order.items) == ("ordering", ["平安京", "鎌倉幕府", "室町幕府", "江戸幕府"])
        steps = built.qti_choices(order.id)
        right = [steps[t] for t in ["平安京", "鎌倉幕府", "室町幕府", "江戸幕府"]]
        assert score_item(built.qti_raw(order.id), right)["SCORE"] == 1
        assert score_item(built.qti_raw(order.id), right[::-1])["SCORE"] == 0
        assert built.moodle_question(order.id).get("type") == "ordering"
        assert built.canvas_meta(order.id)["question_type"] == "multiple_dropdowns_question"
    else:
        # Pasted as written, the paper is read by the same reader: the order of options too.
        text = tmp_path / "paper.txt"
        text.write_text("T\n\n" + JA_FORMS.replace("{type}", " {type=numerical}"), encoding="utf-8")
        code, out, err = run("import", str(text), "--out", str(tmp_path / "source"))
        assert code == 0 and err == "", err
        (source,) = (tmp_path / "source").glob("*.md")
        built = build_all(tmp_path, source)
        number, metals, order = built.quiz.iter_questions()
        assert (order.type, order.items) == ("ordering", ["平安京", "鎌倉幕府", "室町幕府", "江戸幕府"])
    assert (number.type, [(a.value, a.tolerance) for a in number.answers]) == ("numerical", [(1.25, 0)])
    assert score_item(built.qti_raw(number.id), "1.25")["SCORE"] == 1
    assert built.moodle_answers(number.id) == {"1.25": "100"}
    assert (metals.type, [c.text for c in metals.choices if c.correct]) == ("multiple_response", ["鉄", "銅"])
    choices = built.qti_choices(metals.id)
    assert score_item(built.qti_raw(metals.id), [choices["鉄"], choices["銅"]])["SCORE"] == 1
    assert canvas_required(built, metals.id) == ["鉄", "銅"]
    assert list(choices) == ["鉄", "酸素", "銅", "窒素"]  # the markers are no part of the options


@pytest.mark.parametrize("route", ["build", "import"])
def test_chinese_letters_glued_name_several_options(route: str, tmp_path: Path) -> None:
    body = "一、多选题（每题3分）\n\n1. 下列属于金属的是\nA. 铁\nB. 铜\nC. 氧\nD. 氮\n答案：AB\n"
    source = by_route(route, tmp_path, body, "zh")
    built = build_all(tmp_path, source)
    (q,) = built.quiz.iter_questions()
    assert (q.type, q.points, [c.text for c in q.choices if c.correct]) == ("multiple_response", 3, ["铁", "铜"])
    choices = built.qti_choices(q.id)
    assert score_item(built.qti_raw(q.id), [choices["铁"], choices["铜"]])["SCORE"] == 3
    assert score_item(built.qti_raw(q.id), [choices["铁"]])["SCORE"] < 3
    assert sorted(t for t, f in built.moodle_answers(q.id).items() if float(f) > 0) == ["铁", "铜"]
    assert canvas_required(built, q.id) == ["铁", "铜"]


# -- an ordering question printed as options -------------------------------------------------------

@pytest.mark.parametrize("route", ["build", "import"])
def test_orders_printed_as_options(route: str, tmp_path: Path) -> None:
    """Paragraphs (A)(B)(C), then the orders as options on one line, as 수능 papers print them."""
    body = ("1. 주어진 글 다음에 이어질 글의 순서로 가장 적절한 것은?\n\nMany animals sleep during the winter.\n\n"
            "(A) They wake up in the spring.\n(B) Before that, they eat a lot of food.\n(C) Then they find a warm place to sleep.\n\n"
            "① (A)-(C)-(B) ② (B)-(A)-(C) ③ (B)-(C)-(A) ④ (C)-(A)-(B) ⑤ (C)-(B)-(A)\n정답: ③\n")
    source = by_route(route, tmp_path, body, "ko")
    built = build_all(tmp_path, source)
    (q,) = built.quiz.iter_questions()
    orders = ["(A)-(C)-(B)", "(B)-(A)-(C)", "(B)-(C)-(A)", "(C)-(A)-(B)", "(C)-(B)-(A)"]
    assert (q.type, [c.text for c in q.choices]) == ("single_choice", orders)
    assert [c.text for c in q.choices if c.correct] == ["(B)-(C)-(A)"]
    for paragraph in ("They wake up in the spring.", "Before that, they eat a lot of food.", "Then they find a warm place"):
        assert paragraph in q.stem and paragraph in built.qti_text(q.id, "stem") and paragraph in built.moodle_text(q.id)
    choices = built.qti_choices(q.id)
    assert list(choices) == orders
    assert score_item(built.qti_raw(q.id), choices["(B)-(C)-(A)"])["SCORE"] == 1
    assert score_item(built.qti_raw(q.id), choices["(A)-(C)-(B)"])["SCORE"] == 0
    assert [t for t, f in built.moodle_answers(q.id).items() if f == "100"] == ["(B)-(C)-(A)"]
    assert built.canvas_correct(q.id) == ["(B)-(C)-(A)"]


@pytest.mark.parametrize("route", ["build", "import"])
def test_japanese_blanks_named_by_letters(route: str, tmp_path: Path) -> None:
    """``（　ａ　）`` blanks and ``【解答】ａ 酸素　ｂ 水素``: each blank takes its word."""
    body = ("【１】次の文の空欄に当てはまる語句を答えなさい。（各２点）\n\n"
            "1. 水を電気分解すると、陽極から（　ａ　）、陰極から（　ｂ　）が発生する。\n【解答】ａ 酸素　ｂ 水素\n")
    source = by_route(route, tmp_path, body, "ja")
    built = build_all(tmp_path, source)
    (q,) = built.quiz.iter_questions()
    assert q.type == "fill_in_blank" and q.points == 2
    assert q.stem == "水を電気分解すると、陽極から[[b1]]、陰極から[[b2]]が発生する。"
    assert [(b.id, b.answers) for b in q.blanks] == [("b1", ["酸素"]), ("b2", ["水素"])]
    entries = [e.get("responseIdentifier") for e in built.qti_item(q.id).iter("{http://www.imsglobal.org/xsd/imsqti_v2p1}textEntryInteraction")]
    assert len(entries) == 2
    assert score_item(built.qti_raw(q.id), dict(zip(entries, ["酸素", "水素"])))["SCORE"] == 2
    assert score_item(built.qti_raw(q.id), dict(zip(entries, ["水素", "酸素"])))["SCORE"] == 0
    moodle = built.moodle_text(q.id)
    assert "酸素" in moodle and "水素" in moodle and "ａ" not in moodle  # the cloze's answers, no letter left
    assert "（　ａ　）" not in built.canvas_text(q.id) and "酸素" not in built.canvas_text(q.id)


# -- the two routes agree -------------------------------------------------------------------------------

def _reading(quiz: object) -> list[tuple[object, ...]]:
    """What students and graders get of each question, without its id (the routes name ids apart)."""
    found = []
    for section_path, section in quiz.iter_sections():  # type: ignore[attr-defined]
        for q in section.questions:
            data = q.model_dump(exclude={"id", "title"})
            if "choices" in data:
                data["choices"] = [(c["text"], c["correct"]) for c in data["choices"]]
            found.append((section.title, section.description, sorted(data.items())))
    return found


@pytest.mark.parametrize("paper", sorted(PAPERS.glob("*.md")), ids=lambda p: p.name)
def test_build_and_import_read_a_paper_alike(paper: Path, tmp_path: Path) -> None:
    """The paper built as written and the paper pasted then imported: the same questions, sections,
    texts, answers, points and feedback (the ids, which the two routes make apart, aside)."""
    read = read_quiz(paper, DiagnosticSink())
    assert read is not None
    quizzes, sink = run_import(pasted(paper, tmp_path))
    assert not sink.errors and len(quizzes) == 1
    assert _reading(quizzes[0].quiz) == _reading(read[0])
    assert (quizzes[0].quiz.title, quizzes[0].quiz.language) == (read[0].title, read[0].language)
    assert quizzes[0].quiz.description == read[0].description  # the instructions as build reads them: a list stays a list


# -- two-column matching tables ----------------------------------------------------------------------

TABLE_DEFINITIONS = {
    "matching.en.md": ["Division that makes four different cells", "Division that makes two identical cells",
                       "Movement of water across a membrane", "Movement of particles from high to low concentration",
                       "Movement of sugar out of a leaf"],
    "zuordnung.de.md": ["Ort der Fotosynthese", "Ort der Zellatmung", "Enthält die Erbinformation"],
}
TABLE_TERMS = {"matching.en.md": ["Mitosis", "Meiosis", "Osmosis", "Diffusion"],
               "zuordnung.de.md": ["Zellkern", "Chloroplast", "Mitochondrium"]}


def test_a_matching_table_is_one_choice_per_item(paper: tuple[Outputs, str]) -> None:
    """Each row's term is its question's whole text (no blank, no definition), and every item offers
    the table's definitions, distractors included, in the table's order, in all three outputs."""
    built, name = paper
    if name not in TABLE_DEFINITIONS:
        return
    rows = [q for q in built.quiz.iter_questions() if q.stem in TABLE_TERMS[name]]
    assert [q.stem for q in rows] == TABLE_TERMS[name]
    for q in rows:
        assert [c.text for c in q.choices] == TABLE_DEFINITIONS[name]
        assert list(built.qti_choices(q.id)) == TABLE_DEFINITIONS[name]
        assert list(built.moodle_answers(q.id)) == TABLE_DEFINITIONS[name]
        for shown in (built.qti_text(q.id, "stem"), built.moodle_text(q.id), built.canvas_text(q.id)):
            assert "____" not in shown and "A." not in shown and q.stem in shown, shown


def test_the_outline_numbers_a_table_s_items_as_the_paper_does() -> None:
    code, out, err = run("check", str(PAPERS / "matching.en.md"), "--outline")
    assert code == 0, err
    rows = [line.strip().split(" | ") for line in (out + err).split("\n") if line.startswith("  ")]
    assert [row[:3] for row in rows] == [
        ["1. single choice", "answer B", "2 points"], ["2. single choice", "answer B", "2 points"],
        ["3. single choice", "answer A", "2 points"], ["4. single choice", "answer C", "2 points"],
        ["5. single choice", "answer D", "2 points"]]
    assert "the paper states Total: 10 points (matches)" in out + err


@pytest.mark.parametrize("route", ["build", "import"])
def test_a_french_matching_table(route: str, tmp_path: Path) -> None:
    """'Associez' with the definitions after several spaces (not a tab) and lower-case letters, the
    letters in a key 'Réponses' at the end; a definition on a row of its own is a distractor."""
    body = ("Partie B : Associez chaque organe à sa fonction (1 point chacun)\n\n"
            "1) ____ Le cœur      a. Filtre le sang\n2) ____ Les reins     b. Pompe le sang\n"
            "3) ____ Les poumons   c. Échanges gazeux\n                      d. Digère les aliments\n\n"
            "Réponses : 1. b 2. a 3. c\n")
    source = by_route(route, tmp_path, body, "fr")
    built = build_all(tmp_path, source)
    questions = list(built.quiz.iter_questions())
    assert [(q.stem, q.type, q.points) for q in questions] == [
        ("Le cœur", "single_choice", 1), ("Les reins", "single_choice", 1), ("Les poumons", "single_choice", 1)]
    options = ["Filtre le sang", "Pompe le sang", "Échanges gazeux", "Digère les aliments"]
    for q, right in zip(questions, ["Pompe le sang", "Filtre le sang", "Échanges gazeux"]):
        assert [c.text for c in q.choices] == options
        assert [c.text for c in q.choices if c.correct] == [right]
        choices = built.qti_choices(q.id)
        assert score_item(built.qti_raw(q.id), choices[right])["SCORE"] == 1
        assert score_item(built.qti_raw(q.id), choices["Digère les aliments"])["SCORE"] == 0
        assert [t for t, f in built.moodle_answers(q.id).items() if f == "100"] == [right]
        assert built.canvas_correct(q.id) == [right]


TABLE = ("Part II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four different cells\n"
         "8) ____ Meiosis\tB. Division that makes two identical cells\n9) ____ Osmosis\tC. Movement of water\n")
TABLE_SLIPS = [
    # (the paper's body, the errors as (line in the body, code))
    (TABLE + "\nAnswer Key\n7. B\n9. C\n", [(4, "QB192")]),  # item 8 has no letter
    (TABLE + "\nAnswer Key\n7. B\n8. A\n9. E\n", [(10, "QB193")]),  # no definition E
    (TABLE.replace("9) ____ Osmosis", "\tsee the diagram below\n9) ____ Osmosis") + "\nAnswer Key\n7. B\n8. A\n9. C\n",
     [(5, "QB194")]),  # a line of neither kind inside the table
    (TABLE.replace("C. Movement", "B. Movement") + "\nAnswer Key\n7. B\n8. A\n9. C\n", [(5, "QB195")]),
]


@pytest.mark.parametrize("body, errors", TABLE_SLIPS, ids=[e[0][1] for e in TABLE_SLIPS])
def test_a_matching_table_that_does_not_fit_is_a_located_error(body: str, errors: list[tuple[int, str]],
                                                                 tmp_path: Path) -> None:
    source = tmp_path / "paper.md"
    source.write_text(f"---\ntitle: T\nlanguage: en\n---\n{body}", encoding="utf-8")
    code, out, err = run("check", str(source))
    assert code == 1, err
    found = sorted({(int(line.split(":")[1]) - 4, line.split("[")[1].split("]")[0]) for line in err.split("\n")
                    if ": error[" in line})
    assert found == errors, err
    assert not list(tmp_path.glob("dist/*"))
    text = tmp_path / "paper.txt"
    text.write_text("T\n\n" + body, encoding="utf-8")
    quizzes, sink = run_import(text)
    # The table's own codes at the same lines, once each.
    assert sorted((d.span.line - 2, d.code) for d in sink.errors) == errors


# -- numbered tasks: a heading over numbered questions, or a question, as the paper shows -----------------

TASKS = [
    # (language, the paper's body, sections' titles, each question's (number, type, points, right option))
    ("de", "Aufgabe 1: Welche Stadt ist die Hauptstadt von Frankreich?\nA) Paris\nB) Lyon\nAntwort: A\n\n"
           "Aufgabe 2 (je 2 Punkte)\n\n2.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n"
           "2.2 Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n",
     ["Aufgabe 2"], [(1, 1, "Paris"), (1, 2, "4"), (2, 2, "7")]),
    ("fr", "Exercice 1 (2 points chacun)\n\n1. Quel organe pompe le sang ?\nA) Le cœur\nB) Le foie\nRéponse : A\n\n"
           "2. Quel gaz respirons-nous ?\nA) L'azote\nB) L'oxygène\nRéponse : B\n\n"
           "Exercice 2\nQuelle planète est la plus grande ?\nA) Mars\nB) Jupiter\nRéponse : B\n",
     ["Exercice 1", "Exercice 2"], [(1, 2, "Le cœur"), (2, 2, "L'oxygène"), (2, 1, "Jupiter")]),
    ("es", "Ejercicio 1\n\n1. ¿Cuál es un metal?\nA) Hierro\nB) Oxígeno\nRespuesta: A\n\n"
           "2. ¿Cuál es un gas?\nA) Hierro\nB) Oxígeno\nRespuesta: B\n",
     ["Ejercicio 1"], [(1, 1, "Hierro"), (2, 1, "Oxígeno")]),
    ("en", "Task 1 (3 pts each)\n\n1.1 Which is a mammal?\nA) Whale\nB) Shark\nAnswer: A\n\n"
           "1.2 Which is a bird?\nA) Bat\nB) Penguin\nAnswer: B\n\nProblem 2: Which is a planet?\nA) Mars\nB) The Moon\n"
           "Answer: A\n",
     ["Task 1", "Problem 2"], [(1, 3, "Whale"), (2, 3, "Penguin"), (2, 1, "Mars")]),
]


@pytest.mark.parametrize("route", ["build", "import"])
@pytest.mark.parametrize("language, body, sections, expected", TASKS, ids=[t[0] for t in TASKS])
def test_a_numbered_task_is_a_heading_or_a_question(language: str, body: str, sections: list[str],
                                                    expected: list[tuple[int, float, str]], route: str,
                                                    tmp_path: Path) -> None:
    """A heading when numbered questions of its own follow it (``2.1``, ``1.``); a question when its
    own options and answer follow; the section's rule gives its questions their points."""
    source = by_route(route, tmp_path, body, language)
    built = build_all(tmp_path, source)
    questions = list(built.quiz.iter_questions())
    assert [s.title for _, s in built.quiz.iter_sections() if s.questions and s.title != "T"] == sections
    assert [(q.type, q.points, [c.text for c in q.choices if c.correct]) for q in questions] == [
        ("single_choice", points, [right]) for _, points, right in expected]
    for q, (_, points, right) in zip(questions, expected):
        assert built.qti_weight(q.id) == points
        assert score_item(built.qti_raw(q.id), built.qti_choices(q.id)[right])["SCORE"] == points
        assert float(built.moodle_question(q.id).findtext("defaultgrade")) == points
        assert [t for t, f in built.moodle_answers(q.id).items() if f == "100"] == [right]
        assert built.canvas_correct(q.id) == [right] and float(built.canvas_meta(q.id)["points_possible"]) == points
        for shown in (built.qti_text(q.id, "stem"), built.moodle_text(q.id), built.canvas_text(q.id)):
            assert not any(word in shown for word in ("Aufgabe", "Exercice", "Ejercicio", "Task", "Problem", "2.1", "1.2"))
    if route == "build":  # (import writes each section's questions numbered from 1)
        code, out, err = run("check", str(source), "--outline")
        numbers = [line.strip().split(".")[0] for line in (out + err).split("\n") if line.startswith("  ") and "single choice" in line]
        assert numbers == [str(number) for number, _, _ in expected], out + err


TASK_SLIPS = [
    # (language, the paper's body, the line of the error in the body, its code)
    ("de", "Aufgabe 3\nWelche Zahl ist gerade?\n1) 3\n2) 4\nAntwort: 2\n\nAufgabe 4: Welche Zahl ist prim?\nA) 7\nB) 8\n"
           "Antwort: A\n", 1, "QB196"),
    ("it", "Esercizio 2\nQuale numero è pari?\n1. 3\n2. 4\nRisposta: 2\n\nEsercizio 3: Quale numero è primo?\nA) 7\nB) 8\n"
           "Risposta: A\n", 1, "QB196"),
    ("de", "Aufgabe 2 (4 Punkte)\n\n2.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n"
           "2.2 Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n", 1, "QB197"),
]


@pytest.mark.parametrize("language, body, line, code", TASK_SLIPS, ids=[f"{s[3]}-{s[0]}" for s in TASK_SLIPS])
def test_a_task_that_cannot_be_told_is_a_located_error(language: str, body: str, line: int, code: str,
                                                       tmp_path: Path) -> None:
    source = by_route("build", tmp_path, body, language)
    result, out, err = run("check", str(source))
    assert result == 1 and f"paper.md:{line + 5}:" in err and f"error[{code}]" in err, err
    assert err.count("error[") == 1, err
    # Pasted: import says the same at the same line, and writes nothing.
    text = tmp_path / "paper.txt"
    text.write_text("T\n\n" + body, encoding="utf-8")
    result, out, err = run("import", str(text), "--out", str(tmp_path / "source"))
    assert result == 1 and f"paper.txt:{line + 2}:" in err and f"error[{code}]" in err and err.count("error[") == 1, err
    assert not list((tmp_path / "source").glob("*"))


# -- pasted pages as real papers print them (each quirk seen in a paper nobody here wrote) -----------------

def imported_page(tmp_path: Path, text: str, name: str = "paper.md") -> tuple[int, str, Path | None]:
    page = tmp_path / name
    page.write_text(text, encoding="utf-8")
    code, out, err = run("import", str(page), "--out", str(tmp_path / "source"))
    sources = sorted((tmp_path / "source").glob("*.md"))
    return code, err, sources[0] if sources else None


def test_a_question_line_in_bold_keeps_its_points_and_its_number(tmp_path: Path) -> None:
    """``**01. … (5점)**`` and ``***02. …*`` (the markers unmatched): the emphasis is no part of the
    text, the points are read, and the second question is not folded into the first's answer."""
    text = ("## 정보처리 실기\n\n**01. 웹 페이지를 전송하는 프로토콜의 약자를 쓰시오. (5점)**\n\n정답: HTTP\n\n"
            "***02. 6 곱하기 7의 값을 쓰시오.*\n\n정답: 42\n")
    code, err, source = imported_page(tmp_path, text.replace("정답: HTTP", "모범답안: HTTP").replace("정답: 42", "모범답안: 42"))
    assert code == 0 and source is not None, err
    built = build_all(tmp_path, source)
    first, second = built.quiz.iter_questions()
    assert (first.type, first.points, first.model_answer) == ("essay", 5, "HTTP")
    assert (second.type, second.points, second.model_answer) == ("essay", 1, "42")
    for q in (first, second):
        assert "*" not in q.stem and "*" not in built.moodle_text(q.id) and "(5점)" not in built.qti_text(q.id, "stem")
    assert float(built.moodle_question(first.id).findtext("defaultgrade")) == 5
    assert float(built.canvas_meta(first.id)["points_possible"]) == 5


def test_numbered_headings_with_code_and_checked_options(tmp_path: Path) -> None:
    """``### 1. …（）`` then code then ``- [x] B. 0`` options, the page's first line a question too:
    each heading is its question (not a section, not the title), each option's letter is its box's,
    and a paragraph after marked options explains them."""
    text = ("### 1. 以下代码输出什么？（）\n```c\nint a = 1;\nprintf(\"%d\", a + 1);\n```\n\n"
            "- [ ] A. 1\n- [x] B. 2\n- [ ] C. 3\n\n> **【分析】**<br>\n> a + 1 等于 2。\n\n"
            "### 2. 下列哪个是整数类型（）\n- [x] A. int\n- [ ] B. float\n")
    code, err, source = imported_page(tmp_path, text, "day07.md")
    assert code == 0 and source is not None, err
    built = build_all(tmp_path, source)
    assert built.quiz.title == "day07"  # no question's line, nor its explanation, is the quiz's title
    assert [s.title for _, s in built.quiz.iter_sections() if s.questions] == ["day07"]
    first, second = built.quiz.iter_questions()
    assert [c.text for c in first.choices] == ["1", "2", "3"] and [c.text for c in first.choices if c.correct] == ["2"]
    assert "printf" in first.stem and first.feedback.general == "a + 1 等于 2。"
    assert [c.text for c in second.choices if c.correct] == ["int"]
    choices = built.qti_choices(first.id)
    assert list(choices) == ["1", "2", "3"] and score_item(built.qti_raw(first.id), choices["2"])["SCORE"] == 1
    assert [t for t, f in built.moodle_answers(first.id).items() if f == "100"] == ["2"]
    assert built.canvas_correct(first.id) == ["2"]
    for shown in (built.qti_text(first.id, "stem"), built.moodle_text(first.id), built.canvas_text(first.id)):
        assert "等于" not in shown  # the explanation is shown after answering, never with the question


def test_a_paragraph_after_unmarked_options_is_no_option(tmp_path: Path) -> None:
    # A pasted paper (no web page's form) is read by the exam reader: the paragraph after the
    # options is an error at its line, as build says it (QB117); on a page (a toggle line) the quiz
    # page reader leaves it out and says so (QB711).
    text = ("Quiz\n\n1. Which is a prime?\nA) 4\nB) 7\n\nThe smallest primes are 2, 3, 5 and 7.\n\nAnswer: B\n")
    code, err, source = imported_page(tmp_path, text, "page.txt")
    assert code == 1 and source is None and ":7:1: error[QB117]" in err, err
    code, err, source = imported_page(tmp_path, text.replace("\nAnswer: B", "\nShow answer\nAnswer: B"), "page.txt")
    assert source is not None and ":7:1: warning[QB711]" in err, err
    (q,) = read_quiz(source, DiagnosticSink())[0].iter_questions()  # type: ignore[index]
    assert [c.text for c in q.choices] == ["4", "7"] and [c.text for c in q.choices if c.correct] == ["7"]


@pytest.mark.parametrize("text, line, code", [
    # O/X items with an empty answer space, as a worksheet prints them (its labels in bold: a page)
    ("퀴즈\n\n### O / X 퀴즈\n\n1. 물은 0℃에서 끓는다.  \n   **답**:\n\n2. 얼음은 물에 뜬다.  \n   **답**: O\n", 5, "QB706"),
    # options run into the text after a template call: no option, no answer (a paper: the exam reader's code)
    ("Quiz\n\n1. 水的化学式是（ ）。\n{{ select(1) }}\n- H2O\n- CO2\n\n2. 1+1=?\nA) 1\nB) 2\nAnswer: B\n", 3, "QB128"),
])
def test_a_pasted_question_without_options_or_answer_is_an_error_at_its_line(text: str, line: int, code: str,
                                                                             tmp_path: Path) -> None:
    """Never an answer-less essay that changes what the paper asks (a mark, a choice), as build
    refuses it too (QB128): an error at the question, nothing written."""
    result, err, source = imported_page(tmp_path, text, "page.txt")
    assert result == 1 and source is None, err
    assert f"page.txt:{line}:" in err and f"error[{code}]" in err, err


@pytest.mark.parametrize("route", ["build", "import"])
def test_a_sentence_that_starts_with_a_task_word_is_no_task(route: str, tmp_path: Path) -> None:
    """``Task 2 shows …`` in an explanation, numbered questions after it: the explanation's text."""
    body = ("1. Which is a prime?\nA) 4\nB) 7\nAnswer: B\nExplanation: 7 has no divisors but 1 and 7.\n"
            "Task 2 shows the same for 11.\n\n2. Which is even?\nA) 4\nB) 7\nAnswer: A\n")
    source = by_route(route, tmp_path, body, "en")
    built = build_all(tmp_path, source)
    first, second = built.quiz.iter_questions()
    assert "Task 2 shows the same for 11." in (first.feedback.general or "")
    assert [s.title for _, s in built.quiz.iter_sections()] == ["T"]
    assert [c.text for c in second.choices if c.correct] == ["4"]
