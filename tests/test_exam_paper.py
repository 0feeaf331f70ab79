"""A Korean exam written the way exam papers are (tests/fixtures/exam-ko.md, written for these
tests as a course designer pastes an HWP exam: Ⅰ.-Ⅳ. sections, ①-⑤ options, 정답/해설 lines, (3점)
points, a [3~4] shared passage, O/X questions, short answers with alternatives, a <보기> box,
matching and ordering rows, essays with 채점 기준) builds as meant in all three targets.

Every expectation below is read by hand from the fixture, not from the writers' output; each is
checked by parsing the QTI 2.1 package (and scoring its items with pyslet), the Moodle XML file
and the Canvas package.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import QTI_NS, ROOT
from helpers.cli import run
from helpers.outputs import Outputs, build_all
from helpers.qti21_engine import score_item
from lxml import etree

FIXTURE = ROOT / "tests" / "fixtures" / "exam-ko.md"

PASSAGE = "왕은 집현전 학자들과 함께 새 문자를 만들고"

#: Per question, in order: the line it starts on, its type, its points, and its answer: the
#: correct options' texts, True/False, the accepted answers, the pairs or the order.
EXPECTED: list[tuple[int, str, float, object]] = [
    (12, "single_choice", 3, ["8조법을 만들어 사회 질서를 유지하였다."]),
    (21, "multiple_response", 4, ["불국사", "석굴암"]),
    (32, "single_choice", 3, ["4군 6진을 개척하였다."]),
    (41, "single_choice", 2, ["훈민정음"]),
    (48, "single_choice", 3, ["ㄱ, ㄴ, ㄹ"]),
    (59, "single_choice", 3, ["강감찬"]),
    (66, "true_false", 2, True),
    (69, "true_false", 2, False),
    (75, "short_answer", 3, ["이성계", "태조 이성계"]),
    (78, "short_answer", 3, ["국자감", "성균관"]),
    (81, "fill_in_blank", 4, ["거중기"]),
    (84, "short_answer", 3, ["1392년", "1392"]),
    (87, "matching", 3, {"삼국사기": "김부식", "삼국유사": "일연", "동명왕편": "이규보"}),
    (93, "ordering", 3, ["임진왜란", "병자호란", "갑오개혁"]),
    (101, "essay", 6, "백성이 자신의 뜻을 쉽게 글로 나타낼 수 있도록"),
    (105, "essay", 8, "유형원은 균전론을"),
]
#: The questions the [3~4] passage belongs to (by position), and the options' numbering.
WITH_PASSAGE = {2, 3}
NUMBERING = {0: "123", 1: "123", 2: "123", 3: "123", 4: "123", 5: "123"}


@pytest.fixture(scope="module")
def exam(tmp_path_factory: pytest.TempPathFactory) -> Outputs:
    return build_all(tmp_path_factory.mktemp("exam"), FIXTURE)


def ids(exam: Outputs) -> list[str]:
    return [question.id for question in exam.quiz.iter_questions()]


def test_every_question_is_read_with_its_type_and_points(exam: Outputs) -> None:
    questions = list(exam.quiz.iter_questions())
    assert [(q.type, q.points) for q in questions] == [(kind, points) for _, kind, points, _ in EXPECTED]
    assert exam.warnings == []
    assert [s.title for _, s in exam.quiz.iter_sections()] == ["Ⅰ. 객관식", "Ⅱ. O, X 문제", "Ⅲ. 단답형", "Ⅳ. 서술형"]
    # The instructions before the first section are the quiz's description, each on its line.
    assert exam.quiz.description == ("※ 답안지에 학년, 반, 번호, 이름을 정확히 쓰시오.  \n"
                                     "※ 객관식은 알맞은 답을 하나만 고르시오. 단, '모두 고르면'이라고 한 문항은 있는 대로 고르시오.")


def test_points_come_out_of_the_text(exam: Outputs) -> None:
    for question in exam.quiz.iter_questions():
        assert "점)" not in question.stem and "점]" not in question.stem, question.stem


def test_check_verbose_shows_each_question(tmp_path: Path) -> None:
    code, out, err = run("check", str(FIXTURE), "--verbose", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == ("hanguksa-final: 16 questions: 5 single choice, 1 multiple response, 2 true/false, 3 short answer, "
                        "2 essay, 1 matching, 1 ordering, 1 fill-in-the-blank")
    details = [line.split(" (", 1)[1] for line in lines[1:17]]
    assert details == [
        "single choice, answer ①, 3 points)",
        "multiple response, answer ③, ⑤, 4 points)",
        "single choice, answer ②, 3 points)",
        "single choice, answer 나, 2 points)",
        "single choice, answer ④, 3 points)",
        "single choice, answer ④, 3 points)",
        "true/false, answer O, 2 points)",
        "true/false, answer X, 2 points)",
        "short answer, answer '이성계' or '태조 이성계', 3 points)",
        "short answer, answer '국자감' or '성균관', 3 points)",
        "fill-in-the-blank, blanks '거중기', 4 points)",
        "short answer, answer '1392년' or '1392', 3 points)",
        "matching, 3 pairs, 3 points)",
        "ordering, 3 items in order, 3 points)",
        "essay, model answer, 6 points)",
        "essay, model answer, 8 points)",
    ]
    assert [int(line.split(":")[1]) for line in lines[1:17]] == [line for line, _, _, _ in EXPECTED]


# -- QTI 2.1 -------------------------------------------------------------------------------------------


def test_qti_points_and_passages(exam: Outputs) -> None:
    for n, (question_id, (_, _, points, _)) in enumerate(zip(ids(exam), EXPECTED)):
        assert exam.qti_weight(question_id) == points
        passage = exam.qti_text(question_id, "passage")
        assert (PASSAGE in passage) == (n in WITH_PASSAGE), question_id
        assert PASSAGE not in exam.qti_text(question_id, "stem")


def test_qti_choice_items_score_the_right_options(exam: Outputs) -> None:
    for question_id, (_, kind, points, answer) in zip(ids(exam), EXPECTED):
        if kind not in ("single_choice", "multiple_response"):
            continue
        choices = exam.qti_choices(question_id)
        assert isinstance(answer, list)
        right = [choices[text] for text in answer]
        response = right[0] if kind == "single_choice" else right
        assert score_item(exam.qti_raw(question_id), response)["SCORE"] == points
        wrong = next(ident for text, ident in choices.items() if text not in answer)
        assert score_item(exam.qti_raw(question_id), wrong if kind == "single_choice" else [wrong])["SCORE"] == 0
    multiple = ids(exam)[1]
    choices = exam.qti_choices(multiple)
    assert score_item(exam.qti_raw(multiple), [choices["불국사"]])["SCORE"] == 2  # half of 4


def test_qti_ox_questions_show_o_and_x(exam: Outputs) -> None:
    for question_id, truth in zip(ids(exam)[6:8], (True, False)):
        choices = exam.qti_choices(question_id)
        assert list(choices) == ["O", "X"]
        assert score_item(exam.qti_raw(question_id), choices["O" if truth else "X"])["SCORE"] == 2
        assert score_item(exam.qti_raw(question_id), choices["X" if truth else "O"])["SCORE"] == 0
        stem = exam.qti_text(question_id, "stem")
        assert "(" not in stem and stem.endswith("다.")  # the answer space (O / X) is gone


def test_qti_short_answers_take_every_alternative(exam: Outputs) -> None:
    for question_id, (_, kind, points, answer) in zip(ids(exam), EXPECTED):
        if kind != "short_answer":
            continue
        assert isinstance(answer, list)
        for accepted in answer:
            assert score_item(exam.qti_raw(question_id), accepted)["SCORE"] == points, accepted
        assert score_item(exam.qti_raw(question_id), "왕건")["SCORE"] == 0


def test_qti_blank_matching_ordering_and_essays(exam: Outputs) -> None:
    blank, matching, ordering, essay, parts = (ids(exam)[i] for i in (10, 12, 13, 14, 15))
    item = exam.qti_item(blank)
    (entry,) = item.iter(f"{{{QTI_NS}}}textEntryInteraction")
    assert score_item(exam.qti_raw(blank), {entry.get("responseIdentifier"): "거중기"})["SCORE"] == 4
    assert "(" not in exam.qti_text(blank, "stem")  # the (    ) became the entry field

    sources = {"".join(c.itertext()): c.get("identifier") for c in exam.qti_item(matching).iter(
        f"{{{QTI_NS}}}simpleAssociableChoice")}
    pairs = [f"{sources[p]} {sources[a]}" for p, a in {"삼국사기": "김부식", "삼국유사": "일연", "동명왕편": "이규보"}.items()]
    assert score_item(exam.qti_raw(matching), pairs)["SCORE"] == 3
    assert "･" not in exam.qti_text(matching, "stem")

    order = exam.qti_choices(ordering)
    right = [order[t] for t in ["임진왜란", "병자호란", "갑오개혁"]]
    assert score_item(exam.qti_raw(ordering), right)["SCORE"] == 3
    assert score_item(exam.qti_raw(ordering), right[::-1])["SCORE"] == 0

    for question_id in (essay, parts):
        item = exam.qti_item(question_id)
        solution = item.xpath("//q:modalFeedback[@identifier='solution']", namespaces={"q": QTI_NS})
        assert "채점 기준" in "".join(solution[0].itertext())
    # The sub-questions (1), (2) stay in the essay's text, each on its own line.
    stem = etree_text(exam.qti_item(parts))
    assert "(1) 실학이 등장한 배경을 쓰시오." in stem and "(2) 대표 학자" in stem


def etree_text(item: etree._Element) -> str:
    return "".join(item.xpath("//q:div[@class='stem']", namespaces={"q": QTI_NS})[0].itertext())


def test_qti_box_statements_keep_their_lines(exam: Outputs) -> None:
    item = exam.qti_item(ids(exam)[4])
    stem = item.xpath("//q:div[@class='stem']", namespaces={"q": QTI_NS})[0]
    breaks = stem.xpath(".//q:br", namespaces={"q": QTI_NS})
    assert len(breaks) == 5  # after the question, <보기>, ㄱ., ㄴ. and ㄷ.
    assert [b.tail.strip() for b in breaks] == ["<보기>", "ㄱ. 경국대전이 완성되었다.", "ㄴ. 훈민정음이 창제되었다.",
                                                "ㄷ. 대동법이 전국으로 확대되었다.", "ㄹ. 집현전이 설치되었다."]


# -- Moodle XML ---------------------------------------------------------------------------------------


MOODLE_TYPES = {"single_choice": "multichoice", "multiple_response": "multichoice", "true_false": "multichoice",
                "short_answer": "shortanswer", "fill_in_blank": "cloze", "matching": "matching",
                "ordering": "ordering", "essay": "essay"}


def test_moodle_types_points_answers_and_passages(exam: Outputs) -> None:
    for n, (question_id, (_, kind, points, answer)) in enumerate(zip(ids(exam), EXPECTED)):
        question = exam.moodle_question(question_id)
        assert question.get("type") == MOODLE_TYPES[kind], question_id
        assert float(question.findtext("defaultgrade")) == points
        assert (PASSAGE in exam.moodle_text(question_id)) == (n in WITH_PASSAGE)
        answers = exam.moodle_answers(question_id)
        if kind == "single_choice":
            assert [text for text, fraction in answers.items() if fraction == "100"] == answer
            assert question.findtext("answernumbering") == "123"  # ①②③ and 가나다: 1. 2. 3. in Moodle
        elif kind == "multiple_response":
            assert sorted(text for text, fraction in answers.items() if fraction == "50") == answer
        elif kind == "true_false":
            assert list(answers) == ["O", "X"]  # Moodle's truefalse shows its own words: a choice of the marks
            assert answers["O" if answer else "X"] == "100" and question.findtext("answernumbering") == "none"
        elif kind == "short_answer":
            assert [text for text, fraction in answers.items() if fraction == "100"] == answer
    blank = exam.moodle_question(ids(exam)[10])
    assert "{4:SHORTANSWER:=거중기}" in blank.findtext("questiontext/text")
    matching = exam.moodle_question(ids(exam)[12])
    pairs = {sub.findtext("text"): sub.findtext("answer/text") for sub in matching.findall("subquestion")}
    assert {k.removeprefix("<p>").removesuffix("</p>"): v for k, v in pairs.items()} == EXPECTED[12][3]
    ordering = exam.moodle_question(ids(exam)[13])
    assert [a.findtext("text") for a in ordering.findall("answer")] == ["임진왜란", "병자호란", "갑오개혁"]
    for question_id in ids(exam)[14:]:
        grader = exam.moodle_question(question_id).findtext("graderinfo/text")
        assert "채점 기준" in grader and "점" in grader


# -- Canvas --------------------------------------------------------------------------------------------


def test_canvas_types_points_answers_and_passages(exam: Outputs) -> None:
    for n, (question_id, (_, kind, points, answer)) in enumerate(zip(ids(exam), EXPECTED)):
        meta = exam.canvas_meta(question_id)
        assert float(meta["points_possible"]) == points
        assert (PASSAGE in exam.canvas_text(question_id)) == (n in WITH_PASSAGE)
        if kind == "single_choice":
            assert meta["question_type"] == "multiple_choice_question"
            assert exam.canvas_correct(question_id) == answer
        elif kind == "true_false":
            assert meta["question_type"] == "multiple_choice_question"  # Canvas's true/false shows True/False
            labels = [label.findtext("material/mattext") for label in exam.canvas_item(question_id).iter("response_label")]
            assert labels == ["O", "X"]
            assert exam.canvas_correct(question_id) == ["O" if answer else "X"]
        elif kind == "short_answer":
            assert meta["question_type"] == "short_answer_question"
            assert sorted(exam.canvas_correct(question_id)) == sorted(answer)  # type: ignore[arg-type]
    essay = exam.canvas_item(ids(exam)[14])
    assert any("채점 기준" in (f.findtext(".//mattext") or "") for f in essay.iter("itemfeedback"))


def test_the_preview_shows_passages_and_ox(tmp_path: Path) -> None:
    from lxml import html

    from qti_builder import BuildOptions
    from qti_builder.preview import build_preview

    build_preview(BuildOptions(sources=[FIXTURE]), tmp_path)
    page = html.fromstring((tmp_path / "hanguksa-final.html").read_text(encoding="utf-8"))
    articles = page.xpath("//article[contains(@class, 'question')]")
    assert len(articles) == 16
    shown = [PASSAGE in "".join(a.xpath(".//div[@class='passage']//text()")) for a in articles]
    assert [n for n, has in enumerate(shown) if has] == sorted(WITH_PASSAGE)
    # The options as the source writes them (its warnings, in Korean, may say 참/거짓 of Canvas's questions).
    ox = "".join(articles[6].xpath(".//ol[@class='choices']//text()"))
    assert "O" in ox and "X" in ox and "참" not in ox
    # Options marked as the source marks them.
    assert articles[0].xpath(".//ol[@class='choices']")[0].xpath("li/span[@class='letter']/text()") == ["①", "②", "③", "④", "⑤"]
    assert articles[3].xpath(".//ol[@class='choices']")[0].xpath("li/span[@class='letter']/text()") == ["가", "나", "다", "라"]
