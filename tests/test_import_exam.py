"""Importing exams pasted as text (issue 18): the exam-paper conventions the Markdown reader reads
(question numbers, ①–⑤ and other option markers, points, sections, shared passages, O/X, short
answers) and answer keys at the end in the forms exams print them, applied to their questions.

The three exams in tests/fixtures/import/exam/ were written by hand for these tests, as a teacher
pastes an exam from HWP or Word: a Korean one (sections Ⅰ.–Ⅳ., ① options one per line and several
on a line, a [3~4] passage, a <보기> box, (3.5점) points, O/X, 단답형, 서술형, and a [정답 및 해설] key with
its entries several on a line and its explanations in a part of their own), an English one and a
Japanese one. What each question must become is read off the fixture by hand, and checked in the
source the import writes, built into all three targets (QTI 2.1 scored by pyslet).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from helpers.cli import run
from helpers.importing import messages, run_import
from helpers.outputs import Outputs, build_all
from helpers.qti21_engine import score_item

from qti_builder.importers import detect

EXAMS = ROOT / "tests/fixtures/import/exam"

#: Per exam: (the fixture, the source the import writes, and per question: its line, type, points,
#: answer (the correct options' texts, True/False, the accepted answers, a number, or the start of
#: the model answer), and whether the shared passage is shown with it).
KOREAN = ("sahoe-final.ko.txt", "sahoe-final.ko.md", "1인 가구가 빠르게 늘어나고", [
    (5, "single_choice", 3, ["내집단은 구성원이 소속감을 느끼는 집단이다."], False),
    (11, "multiple_response", 4, ["신문", "텔레비전", "라디오"], False),
    (16, "single_choice", 3, ["가족 구조의 변화"], True),
    (19, "single_choice", 3.5, ["ㄱ, ㄷ"], True),
    (26, "true_false", 2, True, False),
    (27, "true_false", 2, False, False),
    (29, "short_answer", 3, ["문화 전파", "전파"], False),
    (30, "short_answer", 3, ["준거 집단"], False),
    (32, "essay", 6, "가족. 가족은 기본적인 생활 습관과 언어를", False),
])
ENGLISH = ("biology-unit3.en.txt", "biology-unit3.en.md", "the allele for purple flowers", [
    (4, "single_choice", 2, ["Mitochondrion"], False),
    (9, "multiple_response", 3, ["Cell wall", "Chloroplast", "Large central vacuole"], False),
    (16, "single_choice", 2, ["1/2"], True),
    (18, "single_choice", 2, ["i, ii and iii"], True),
    (27, "true_false", 1, False, False),
    (28, "true_false", 1, True, False),
    (30, "short_answer", 2, ["tRNA", "transfer RNA"], False),
    # A number alone is an essay with a warning (QB171), as build reads it: the paper does not say
    # the question is graded as a number.
    (31, "essay", 2, "46", False),
])
JAPANESE = ("chiri-kimatsu.ja.txt", "chiri-kimatsu.ja.md", "季節風の影響を強く受ける", [
    (3, "single_choice", 3, ["北海道"], False),
    (8, "single_choice", 4, ["明石"], False),
    (12, "single_choice", 3, ["源頼朝"], False),
    (19, "single_choice", 3, ["北西"], True),
    (23, "single_choice", 3, ["日本海側"], True),
    (27, "true_false", 2, False, False),
    (28, "true_false", 2, True, False),
    (30, "short_answer", 3, ["信濃川"], False),
    (32, "essay", 6, "稲作が盛んで", False),
])
EXAM_CASES = [KOREAN, ENGLISH, JAPANESE]
#: What import (and build) warn about, by paper.
WARNED = {ENGLISH[0]: ["37:4: warning[QB171]: the answer '46' is a number, but the question is read as an essay with it as "
                       "the model answer"]}


@pytest.fixture(scope="module", params=EXAM_CASES, ids=["ko", "en", "ja"])
def exam(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Outputs, tuple]:
    name, source, _, _ = request.param
    folder = tmp_path_factory.mktemp(name.split(".")[0])
    code, out, err = run("import", str(EXAMS / name), "--out", str(folder / "source"))
    # Not one warning but those build gives the same paper (the exam reader's own).
    assert code == 0 and [line for line in err.splitlines() if not line.startswith(" ")] == [
        f"{EXAMS.relative_to(ROOT) / name}:{where}" for where in WARNED.get(name, [])], err
    assert (folder / "source" / source).exists(), out  # Markdown: the exam's forms are the dialect's
    return build_all(folder, folder / "source" / source), request.param


def test_every_question_with_its_type_points_and_answer(exam: tuple[Outputs, tuple]) -> None:
    built, (name, _, _, expected) = exam
    questions = list(built.quiz.iter_questions())
    assert [(q.type, q.points) for q in questions] == [(kind, points) for _, kind, points, _, _ in expected]
    for q, (_, kind, _, answer, _) in zip(questions, expected):
        if kind in ("single_choice", "multiple_response"):
            assert [c.text for c in q.choices if c.correct] == answer, q.stem
        elif kind == "true_false":
            assert q.answer is answer
        elif kind == "short_answer":
            assert [a.text for a in q.answers] == answer
        elif kind == "numerical":
            assert [(a.value, a.tolerance) for a in q.answers] == [(answer, 0)]
        else:
            assert q.model_answer.startswith(answer)
    assert [w.split("[")[1][:5] for w in built.warnings if "warning[" in w] == [w.split("[")[1][:5] for w in WARNED.get(name, [])]


def test_the_answer_is_never_in_what_students_read_first(exam: tuple[Outputs, tuple]) -> None:
    built, _ = exam
    for q in built.quiz.iter_questions():
        for text in [q.stem, q.passage or ""] + [c.text for c in getattr(q, "choices", [])]:
            assert "정답" not in text and "Answer" not in text and "正解" not in text and "해설" not in text, text


def test_qti_scores_the_right_answers_and_shows_the_passage(exam: tuple[Outputs, tuple]) -> None:
    built, (_, _, passage, expected) = exam
    for q, (_, kind, points, answer, shared) in zip(built.quiz.iter_questions(), expected):
        raw = built.qti_raw(q.id)
        assert built.qti_weight(q.id) == points
        assert (passage in built.qti_text(q.id, "passage")) is shared, q.stem
        assert passage not in built.qti_text(q.id, "stem")
        if kind in ("single_choice", "multiple_response", "true_false"):
            choices = built.qti_choices(q.id)
            if kind == "true_false":
                right = [next(ident for text, ident in choices.items() if text in (("O", "True", "正しい") if answer else ("X", "False", "誤り")))]
            else:
                right = [choices[text] for text in answer]  # type: ignore[union-attr]
            response = right[0] if kind != "multiple_response" else right
            assert score_item(raw, response)["SCORE"] == points, q.stem
            wrong = next(ident for ident in choices.values() if ident not in right)
            assert score_item(raw, wrong if kind != "multiple_response" else [wrong])["SCORE"] == 0
        elif kind == "short_answer":
            for accepted in answer:  # type: ignore[union-attr]
                assert score_item(raw, accepted)["SCORE"] == points, accepted
            assert score_item(raw, "아무 말")["SCORE"] == 0
        elif kind == "numerical":
            assert score_item(raw, str(answer))["SCORE"] == points
            assert score_item(raw, "23")["SCORE"] == 0


MOODLE_TYPES = {"single_choice": "multichoice", "multiple_response": "multichoice", "true_false": "multichoice",
                "short_answer": "shortanswer", "numerical": "numerical", "essay": "essay"}


def test_moodle_types_points_answers_and_passages(exam: tuple[Outputs, tuple]) -> None:
    built, (_, _, passage, expected) = exam
    for q, (_, kind, points, answer, shared) in zip(built.quiz.iter_questions(), expected):
        question = built.moodle_question(q.id)
        assert question.get("type") == MOODLE_TYPES[kind] or (kind == "true_false" and question.get("type") == "truefalse")
        assert float(question.findtext("defaultgrade")) == points
        assert (passage in built.moodle_text(q.id)) is shared
        answers = built.moodle_answers(q.id)
        if kind == "single_choice":
            assert [text for text, fraction in answers.items() if fraction == "100"] == answer
        elif kind == "multiple_response":
            assert sorted(text for text, fraction in answers.items() if float(fraction) > 0) == sorted(answer)  # type: ignore[arg-type]
        elif kind == "short_answer":
            assert [text for text, fraction in answers.items() if fraction == "100"] == answer
        elif kind == "numerical":
            assert answers == {"46": "100"}
        elif kind == "essay":
            assert answer in (question.findtext("graderinfo/text") or "")


def test_canvas_types_points_answers_and_passages(exam: tuple[Outputs, tuple]) -> None:
    built, (_, _, passage, expected) = exam
    for q, (_, kind, points, answer, shared) in zip(built.quiz.iter_questions(), expected):
        meta = built.canvas_meta(q.id)
        assert float(meta["points_possible"]) == points
        assert (passage in built.canvas_text(q.id)) is shared
        if kind == "single_choice":
            assert built.canvas_correct(q.id) == answer
        elif kind == "short_answer":
            assert meta["question_type"] == "short_answer_question" and sorted(built.canvas_correct(q.id)) == sorted(answer)  # type: ignore[arg-type]
        elif kind == "numerical":
            assert meta["question_type"] == "numerical_question"


def test_korean_details_as_the_paper_prints_them(exam: tuple[Outputs, tuple]) -> None:
    built, (name, _, _, _) = exam
    questions = list(built.quiz.iter_questions())
    sections = [s.title for _, s in built.quiz.iter_sections()]
    if name == KOREAN[0]:
        assert sections == ["Ⅰ. 선택형", "Ⅱ. O, X 문제", "Ⅲ. 단답형", "Ⅳ. 서술형"]  # (각 3점) out of the titles
        assert built.quiz.title == "2024학년도 1학기 기말고사 사회·문화" and built.quiz.language == "ko"
        assert questions[0].numbering == "circled-decimal"
        assert built.moodle_question(questions[0].id).findtext("answernumbering") == "123"
        # The key's explanations, in a part of their own, go to their questions.
        assert questions[0].feedback.general.startswith("내집단은 구성원이 소속감과 공동체 의식을")
        assert questions[5].feedback.general == "문화는 사회마다 변동 속도가 다르다."
        assert questions[2].feedback.general is None
        # The <보기> statements stay in the question, each on its own line; O/X is what students choose.
        assert questions[3].stem.endswith("ㄱ. 소형 공공 임대 주택을 늘린다.  \nㄴ. 다자녀 가구에만 주택을 공급한다.  \n"
                                          "ㄷ. 1인 가구를 위한 돌봄 서비스를 마련한다.")
        assert list(built.qti_choices(questions[4].id)) == ["O", "X"] and questions[4].stem.endswith("습득된다.")
        assert questions[8].type == "essay" and questions[8].model_answer.startswith("가족.")
    elif name == ENGLISH[0]:
        assert sections == ["Part I. Multiple choice", "Part II. True or false", "Part III. Short answer"]
        assert questions[1].numbering == "lower-alpha"
        assert questions[3].stem.startswith("Which statements about the cross are true?  \ni. Half of the offspring")
        assert questions[4].feedback.general == "mitochondria and chloroplasts have DNA of their own."
    else:
        assert sections == ["選択問題", "正誤問題", "短答式", "記述問題"]
        assert [q.numbering for q in questions[:5]] == ["katakana", "katakana", "iroha", "katakana", "katakana"]
        assert questions[1].feedback.general == "明石市を東経135度の子午線が通る。"


def test_check_verbose_lists_the_korean_exam(tmp_path: Path) -> None:
    code, _, err = run("import", str(EXAMS / KOREAN[0]), "--out", "source", cwd=tmp_path)
    assert code == 0, err
    code, out, err = run("check", "source", "--verbose", "--lang", "en", cwd=tmp_path)
    assert code == 0, err
    assert out.splitlines()[0] == ("sahoe-final.ko: 9 questions: 3 single choice, 1 multiple response, 2 true/false, "
                                   "2 short answer, 1 essay")
    assert [line.split(" (", 1)[1] for line in out.splitlines()[1:10]] == [
        "single choice, answer ②, 3 points)", "multiple response, answer ①, ③, ⑤, 4 points)", "single choice, answer ②, 3 points)",
        "single choice, answer ③, 3.5 points)", "true/false, answer O, 2 points)", "true/false, answer X, 2 points)",
        "short answer, answer '문화 전파' or '전파', 3 points)", "short answer, answer '준거 집단', 3 points)",
        "essay, model answer, 6 points)"]


# -- answer keys in the forms exams print them ----------------------------------------------------

PAPER = """중간고사
1. 첫째 문제는?
① 가  ② 나  ③ 다  ④ 라
2. 둘째 문제는?
① 가
② 나
③ 다
④ 라
3. 셋째 문제는?
①가 ②나 ③다 ④라
"""

KEYS = [
    "정답: 1.② 2.① 3.④",
    "정답\n1-② 2-① 3-④",
    "[정답]\n1. ②\n2. ①\n3. ④",
    "정답 및 해설\n1. ② 해설: 나가 맞다.\n2. ①\n3. ④",
    "Answer key\n1) ②, 2) ①, 3) ④",
    "【正解】\n1.② 2.① 3.④",
    "1번 ② 2번 ① 3번 ④",
    "1.② 2.① 3.④",  # no title: still the key, never three more questions
    "1. ②\n2. ①\n3. ④",
    "\n| 번호 | 정답 |\n|---|---|\n| 1 | ② |\n| 2 | ① |\n| 3 | ④ |",
    "[정답]\n1.②  2.①  3.④\n[해설]\n1. 나가 맞다.",
]


@pytest.mark.parametrize("key", KEYS, ids=[k.strip().split("\n")[0][:14] for k in KEYS])
def test_an_answer_key_as_exams_print_it(tmp_path: Path, key: str) -> None:
    page = tmp_path / "paper.txt"
    page.write_text(PAPER + key + "\n", encoding="utf-8")
    quizzes, sink = run_import(page)
    assert messages(sink) == []
    questions = list(quizzes[0].quiz.iter_questions())
    assert [[c.id for c in q.choices if c.correct] for q in questions] == [["B"], ["A"], ["D"]]
    assert [len(q.choices) for q in questions] == [4, 4, 4]
    if "해설" in key:
        assert questions[0].feedback.general == "나가 맞다." and questions[1].feedback.general is None


def errors_of(tmp_path: Path, text: str) -> tuple[int, list[str]]:
    """``qti-builder import`` of a pasted exam: its exit code, and its errors without the summary line."""
    (tmp_path / "paper.txt").write_text(text, encoding="utf-8")
    code, _, err = run("import", "paper.txt", "--out", "source", "--lang", "en", cwd=tmp_path)
    assert not (tmp_path / "source").exists()  # nothing half-written
    return code, [line for line in err.splitlines() if "error[" in line or line.startswith("    hint")]


# A pasted paper is read by the exam reader, as build reads its source: its errors are build's, at the
# paper's own lines and columns.

def test_a_key_entry_for_a_question_the_paper_lacks_is_an_error(tmp_path: Path) -> None:
    code, found = errors_of(tmp_path, PAPER + "[정답]\n1.② 2.① 3.④ 4.③\n")
    assert code == 1
    assert found[0] == ("paper.txt:12:15: error[QB187]: the answer key gives an answer for question 4 ('③'), but the paper has "
                        "no question 4")
    assert found[1].startswith("    hint: number the key as the questions are numbered")


def test_a_question_the_key_leaves_out_is_an_error(tmp_path: Path) -> None:
    code, found = errors_of(tmp_path, PAPER + "[정답]\n1.② 3.④\n")
    assert code == 1 and found[0] == "paper.txt:4:1: error[QB120]: the question has options but no correct answer"
    assert [line for line in found if "error[" in line] == [found[0]]


def test_a_key_naming_an_option_the_question_lacks_is_an_error(tmp_path: Path) -> None:
    code, found = errors_of(tmp_path, PAPER + "[정답]\n1.② 2.⑥ 3.④\n")
    assert code == 1 and "paper.txt:12:7: error[QB126]: the answer names option 6, which does not exist" in found


def test_options_the_importer_cannot_read_are_an_error_not_an_essay(tmp_path: Path) -> None:
    # ❶ ❷ are no option markers (the reader reports them, QB180), and the question is not an essay
    # whose model answer is "②".
    code, found = errors_of(tmp_path, "시험\n1. 옳은 것은?\n❶ 가\n❷ 나\n[정답]\n1. ②\n")
    assert code == 1 and found[0] == "paper.txt:3:1: error[QB180]: '❶' is not an option marker qti-builder reads"


def test_a_word_answer_outside_a_short_answer_section_is_an_error(tmp_path: Path) -> None:
    code, found = errors_of(tmp_path, "시험\n1. 조선의 수도는?\n정답: 한양\n")
    assert code == 1 and found[0].startswith("paper.txt:3:5: error[QB175]: the answer '한양' is a word or a short phrase")
    # Under a section that says so, it is a short answer.
    quizzes, sink = run_import_text(tmp_path, "시험\nⅠ. 단답형\n1. 조선의 수도는?\n정답: 한양 또는 한성\n")
    (q,) = quizzes[0].quiz.iter_questions()
    assert q.type == "short_answer" and [a.text for a in q.answers] == ["한양", "한성"]


def run_import_text(tmp_path: Path, text: str, name: str = "page.txt") -> tuple[list, object]:
    (tmp_path / name).write_text(text, encoding="utf-8")
    return run_import(tmp_path / name)


# -- issue 22: what quiz pages still misread ------------------------------------------------------


@pytest.mark.parametrize("marker", [".", ")"])
def test_options_numbered_under_a_question(tmp_path: Path, marker: str) -> None:
    page = (f"# Primes\n\n## Question 1\n\nWhich number is prime?\n1{marker} 4\n2{marker} 7\n3{marker} 9\nAnswer: 2\n\n"
            f"## Question 2\n\nWhich number is even?\n1{marker} 3\n2{marker} 5\n3{marker} 8\nAnswer: 3\n")
    quizzes, sink = run_import_text(tmp_path, page, "primes.md")
    assert messages(sink) == []
    prime, even = quizzes[0].quiz.iter_questions()
    assert [c.text for c in prime.choices] == ["4", "7", "9"] and [c.correct for c in prime.choices] == [False, True, False]
    assert [c.text for c in even.choices] == ["3", "5", "8"] and even.choices[2].correct
    assert prime.numbering == "decimal"


def test_numbered_questions_without_options_stay_questions(tmp_path: Path) -> None:
    quizzes, sink = run_import_text(tmp_path, "# Sums\n\n1. What is 2 + 2?\n2. What is 3 + 3?\n\n## Answers\n\n1. 4\n2. 6\n", "sums.md")
    # Read by the exam reader: two questions answered by the key, each a number alone (QB171 at its entry).
    assert [(d.code, d.span.line) for d in sink.items] == [("QB171", 8), ("QB171", 9)]
    assert [(q.type, q.model_answer) for q in quizzes[0].quiz.iter_questions()] == [("essay", "4"), ("essay", "6")]


@pytest.mark.parametrize("answer", ["42", "3.14 ± 0.01", "-7", "2..4"])
def test_a_number_alone_is_read_as_build_reads_it(tmp_path: Path, answer: str) -> None:
    """A number alone under a question the paper does not type: an essay with a warning at the
    answer (QB171), as build reads it; ``{type=numerical}`` makes it a number."""
    quizzes, sink = run_import_text(tmp_path, f"Numbers\n\n1. How much?\nAnswer: {answer}\n")
    assert [(d.code, d.span.line, d.span.column) for d in sink.items] == [("QB171", 4, 9)]
    (q,) = quizzes[0].quiz.iter_questions()
    assert q.type == "essay" and q.model_answer == answer
    quizzes, sink = run_import_text(tmp_path, f"Numbers\n\n1. How much? {{type=numerical}}\nAnswer: {answer}\n")
    assert messages(sink) == []
    (q,) = quizzes[0].quiz.iter_questions()
    assert q.type == "numerical"


MKDOCS_QUIZ = """# Git quiz

<quiz>
Which command records staged changes?
- [ ] `git add`
- [x] `git commit`
> A commit records what `add` staged.
- [ ] `git push`

Read more in **Pro Git**.
</quiz>

Some prose between the quizzes.

<quiz>
Which of these rewrite history?
* [x] git rebase
* [ ] git log
* [x] git commit --amend
</quiz>

<quiz>
The default branch of a new repository is [[main]].

---
It was `master` before Git 2.28's setting.
</quiz>

<quiz>
Which is a VCS?
- [ ] Python
- [ ] Make
</quiz>

```markdown
<quiz>
An example in a code block is no quiz.
- [x] right
</quiz>
```
"""


def test_a_text_page_that_starts_with_an_mkdocs_quiz_block_is_a_page(tmp_path: Path) -> None:
    """``<quiz>`` is also Moodle XML's root element: a .txt page whose first line is the block,
    with no <question> in it, is read as the page it is (a .xml file stays Moodle's)."""
    page = "<quiz>\nWhich command records staged changes?\n- [ ] `git add`\n- [x] `git commit`\n</quiz>\n"
    quizzes, sink = run_import_text(tmp_path, page, "git.txt")
    assert not sink.errors, messages(sink)
    (commit,) = quizzes[0].quiz.iter_questions()
    assert commit.type == "single_choice" and commit.choices[1].correct
    (tmp_path / "bank.txt").write_text('<quiz>\n<question type="truefalse"><name><text>n</text></name></question>\n</quiz>\n',
                                       encoding="utf-8")
    assert detect(tmp_path / "bank.txt").name == "moodle"  # type: ignore[union-attr]


def test_mkdocs_quiz_tags(tmp_path: Path) -> None:
    """mkdocs-quiz 1.x: ``<quiz>`` blocks of Markdown, as its plugin reads them (mkdocs_quiz/plugin.py)."""
    quizzes, sink = run_import_text(tmp_path, MKDOCS_QUIZ, "git.md")
    assert [m for m in messages(sink) if "QB713" in m] == [
        "git.md:29:1: warning[QB713]: the quiz block at line 29 was skipped: none of its answers is marked '- [x]' (the plugin "
        "refuses it too)\n    hint: write the question, then its answers as '- [x] right' and '- [ ] wrong' lines"]
    commit, history, branch = quizzes[0].quiz.iter_questions()
    assert commit.type == "single_choice" and commit.stem == "Which command records staged changes?"
    assert [c.text for c in commit.choices] == ["`git add`", "`git commit`", "`git push`"] and commit.choices[1].correct
    assert commit.choices[1].feedback == "A commit records what `add` staged."  # the > line under an answer
    assert commit.feedback.general == "Read more in **Pro Git**."  # the content after the answers
    assert history.type == "multiple_response" and [c.correct for c in history.choices] == [True, False, True]
    assert branch.type == "fill_in_blank" and branch.stem == "The default branch of a new repository is [[b1]]."
    assert [b.answers for b in branch.blanks] == [["main"]]
    assert branch.feedback.general == "It was `master` before Git 2.28's setting."
    assert quizzes[0].skipped == {"mkdocs-quiz": 1}
    builds_as_written(quizzes[0], tmp_path)


def builds_as_written(item: object, folder: Path) -> None:
    from helpers.importing import builds

    builds(item.quiz, item.media, folder)  # type: ignore[attr-defined]


def test_blanks_matching_ordering_and_a_marking_scheme_in_a_pasted_exam(tmp_path: Path) -> None:
    text = """국어 수행평가
Ⅰ. 단답형 (각 2점)
1. 조선을 건국한 왕은 (    )이다.
2. 다음 작가와 작품을 바르게 연결하시오.
(가) 김소월 ･ ･ ㉠ 서시
(나) 윤동주 ･ ･ ㉡ 진달래꽃
3. 다음 사건을 일어난 순서대로 나열하시오.
(가) 임진왜란
(나) 병자호란
(다) 갑오개혁
4. 건국자는 ( ㉠ ), 수도는 ( ㉡ )이다.
Ⅱ. 서술형
5. 훈민정음 창제의 목적을 서술하시오. (5점)
정답
1. 이성계 또는 태조
2. (가)-㉡, (나)-㉠
3. (가) → (나) → (다)
4. ㉠ 이성계, ㉡ 한양
5. 모범답안: 백성이 글을 쉽게 쓰도록 하기 위해서이다.
채점 기준: 목적을 쓰면 5점.
"""
    quizzes, sink = run_import_text(tmp_path, text)
    assert messages(sink) == []
    blank, matching, ordering, named, essay = quizzes[0].quiz.iter_questions()
    assert blank.stem == "조선을 건국한 왕은 [[b1]]이다." and [b.answers for b in blank.blanks] == [["이성계", "태조"]]
    assert [(p.prompt, p.answer) for p in matching.pairs] == [("김소월", "진달래꽃"), ("윤동주", "서시")]
    assert ordering.items == ["임진왜란", "병자호란", "갑오개혁"] and "(가)" not in ordering.stem
    assert [b.answers for b in named.blanks] == [["이성계"], ["한양"]] and named.id.startswith("q")  # not "b1-b2"
    # The marking scheme under the key's entry goes to graders with the model answer, never to students.
    assert essay.type == "essay" and essay.points == 5 and not essay.feedback.general
    assert essay.model_answer == "백성이 글을 쉽게 쓰도록 하기 위해서이다.\n\n**채점 기준**\n\n목적을 쓰면 5점."
    builds_as_written(quizzes[0], tmp_path)
