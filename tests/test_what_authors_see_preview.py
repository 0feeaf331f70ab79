"""What an author sees in the HTML preview (``qti-builder preview``) of every kind of question:
each question's number, points and kind, its text, what students answer with (options, drop-downs,
items, a text box or a file), and, under "Show answer", the right answers, each option's and
answer's feedback, the question's feedback and a model answer. The expected values are read from
the fixture with PyYAML, the preview with lxml.html: nothing is taken from the preview's code.

Until the ninth session of issue 35 no test read these: the preview's templates' mutants survived
(dropping the options, the right answers or the pairs), as the template mutation tool's preview
target showed (tests/README.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lxml.html
import pytest
import yaml
from helpers import ROOT

from qti_builder import BuildOptions
from qti_builder.preview import build_preview

FIXTURE = ROOT / "tests" / "fixtures" / "all-types.yaml"


def _questions(node: dict[str, Any]) -> list[dict[str, Any]]:
    found = list(node.get("questions", []))
    for section in node.get("sections", []):
        found += _questions(section)
    return found


QUESTIONS = {q["id"]: q for q in _questions(yaml.safe_load(FIXTURE.read_text(encoding="utf-8")))}


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Any:
    out = tmp_path_factory.mktemp("preview")
    build_preview(BuildOptions(sources=[FIXTURE]), out)
    return lxml.html.parse(str(out / "all-types.html")).getroot()


def _text(element: Any) -> str:
    return " ".join(element.text_content().split())


def _article(page: Any, qid: str) -> Any:
    found = page.xpath(f'//article[@id="q-{qid}"]')
    assert len(found) == 1, qid
    return found[0]


def _shown(article: Any, path: str) -> list[Any]:
    """What students would see: outside the answer's details."""
    return [e for e in article.xpath(path) if not e.xpath("ancestor::details")]


def _answer(article: Any, path: str) -> list[Any]:
    return article.xpath(f".//details[@class='answer']{path}")


@pytest.mark.parametrize("qid", sorted(QUESTIONS))
def test_each_question_shows_its_kind_text_and_points(page: Any, qid: str) -> None:
    q = QUESTIONS[qid]
    article = _article(page, qid)
    assert article.get("data-type") == q["type"]
    assert _text(article.xpath("./header/span[@class='kind']")[0]) == KIND_WORDS[q["type"]]  # its name, not its id
    stem = _text(article.xpath("./div[@class='stem']")[0])
    plain = q["stem"].replace("**", "").replace("*", "")
    if q["type"] == "fill_in_blank":
        plain = plain.split("[[")[0]
    assert stem.startswith(plain.strip()), (stem, plain)
    if q["type"] != "text_only":
        points = q.get("points", 1)
        assert _text(article.xpath("./header/span[@class='points']")[0]) == f"{points} point{'s' if points != 1 else ''}"


CHOICE_KINDS = [qid for qid, q in QUESTIONS.items() if q["type"] in ("single_choice", "multiple_response")]


@pytest.mark.parametrize("qid", CHOICE_KINDS)
def test_choices_are_shown_in_order_and_the_right_ones_marked_under_the_answer(page: Any, qid: str) -> None:
    q = QUESTIONS[qid]
    article = _article(page, qid)
    shown = _shown(article, ".//ol[@class='choices']/li")
    assert [(_text(li.xpath("./span")[0]), _text(li.xpath("./span")[1])) for li in shown] \
        == [(c["id"], c["text"]) for c in q["choices"]]
    correct = [c for c in q["choices"] if c.get("correct")]
    assert [_text(li.xpath("./span")[1]).split(" (")[0] for li in _answer(article, "//ol[@class='choices']/li[@class='correct']")] \
        == [c["text"] for c in correct]
    assert all(_text(li.xpath("./span")[0]) == "✔" for li in _answer(article, "//li[@class='correct']"))
    assert _text(_answer(article, "/p[@class='correct']")[0]).endswith(", ".join(c["id"] for c in correct))
    assert [_text(li) for li in _answer(article, "//li[@class='fb']")] == [c["feedback"] for c in q["choices"] if c.get("feedback")]


def test_a_true_false_question_marks_its_answer_and_shows_each_side_s_feedback(page: Any) -> None:
    q = QUESTIONS["earth-flat"]
    article = _article(page, "earth-flat")
    assert [_text(li.xpath("./span")[1]) for li in _shown(article, ".//ol[@class='choices']/li")] == ["True", "False"]
    assert [_text(li.xpath("./span")[1]) for li in _answer(article, "//li[@class='correct']")] == ["False" if not q["answer"] else "True"]
    assert [_text(li) for li in _answer(article, "//li[@class='fb']")] == [q["true_feedback"], q["false_feedback"]]


@pytest.mark.parametrize(("qid", "key"), [(qid, key) for qid, q in QUESTIONS.items() for key in q.get("feedback", {})])
def test_the_question_s_feedback_is_shown_under_the_answer(page: Any, qid: str, key: str) -> None:
    found = _answer(_article(page, qid), f"/div[@class='feedback feedback-{key}']")
    assert len(found) == 1 and _text(found[0]).endswith(QUESTIONS[qid]["feedback"][key])


def test_a_short_answer_lists_its_answers_the_full_ones_marked_with_their_feedback(page: Any) -> None:
    q = QUESTIONS["author"]
    items = _answer(_article(page, "author"), "/ul/li")
    assert [_text(li.xpath("./code")[0]) for li in items] == [a["text"] for a in q["answers"]]
    assert [li.get("class") == "correct" for li in items] == [a["score"] == 100 for a in q["answers"]]
    assert [_text(fb) for li in items for fb in li.xpath("./div[@class='fb']")] == [a["feedback"] for a in q["answers"] if a.get("feedback")]
    assert "(score 50%)" in _text(items[2])
    assert _shown(_article(page, "author"), ".//input[@class='blank']")


def test_numerical_answers_show_their_values_ranges_and_unit(page: Any) -> None:
    items = _answer(_article(page, "pi"), "/ul/li")
    answers = QUESTIONS["pi"]["answers"]
    assert [_text(li.xpath("./code")[0]).split(" (")[0] for li in items] == [f"{a['value']:g}" for a in answers]
    assert "(3.135 … 3.145)" in _text(items[0]) and "(2.85 … 3.15)" in _text(items[1])  # ± 0.005, and 5 % of 3
    assert [li.get("class") == "correct" for li in items] == [a["score"] == 100 for a in answers]
    boiling = _article(page, "boiling")
    assert QUESTIONS["boiling"]["unit"] in _text(_shown(boiling, ".//p[input]")[0])
    assert _text(_answer(boiling, "/ul/li/code")[0]) == f"100 {QUESTIONS['boiling']['unit']}"


@pytest.mark.parametrize("qid", ["explain", "report"])
def test_an_open_question_shows_its_model_answer_to_graders(page: Any, qid: str) -> None:
    found = _answer(_article(page, qid), "/div[@class='model-answer']")
    assert len(found) == 1 and _text(found[0]).endswith(QUESTIONS[qid]["model_answer"])


def test_an_essay_gives_a_box_and_an_upload_its_files(page: Any) -> None:
    box = _shown(_article(page, "explain"), ".//textarea")
    assert len(box) == 1 and box[0].get("rows") == str(min(QUESTIONS["explain"]["expected_lines"], 8))
    upload = _text(_shown(_article(page, "report"), ".//p[input[@type='file']]")[0])
    assert str(QUESTIONS["report"]["max_files"]) in upload and all(t in upload for t in QUESTIONS["report"]["allowed_types"])


def test_a_matching_question_offers_every_answer_and_shows_its_pairs(page: Any) -> None:
    q = QUESTIONS["countries"]
    article = _article(page, "countries")
    rows = _shown(article, ".//table/tr")
    assert [_text(row.xpath("./td")[0]) for row in rows] == [p["prompt"] for p in q["pairs"]]
    for row in rows:
        offered = [_text(o) for o in row.xpath(".//select/option") if _text(o)]
        assert sorted(offered) == sorted([p["answer"] for p in q["pairs"]] + q["distractors"])
    pairs = _answer(article, "/table/tr[@class='correct']")
    assert [(_text(r.xpath("./td")[0]), _text(r.xpath("./td")[1])) for r in pairs] == [(p["prompt"], f"→ {p['answer']}") for p in q["pairs"]]
    assert _text(_answer(article, "/p")[-1]).endswith(", ".join(q["distractors"]))


def test_an_ordering_question_shows_its_items_and_their_right_order(page: Any) -> None:
    q = QUESTIONS["planets"]
    article = _article(page, "planets")
    assert sorted(_text(li) for li in article.xpath("./ul/li")) == sorted(q["items"])
    assert [_text(li) for li in _answer(article, "/ol[@class='correct']/li")] == q["items"]


def test_a_fill_in_blank_question_lists_each_blank_s_answers(page: Any) -> None:
    q = QUESTIONS["sentence"]
    blanks = _answer(_article(page, "sentence"), "/ol/li[@class='correct']")
    assert [[_text(c) for c in li.xpath("./code")] for li in blanks] == [b["answers"] for b in q["blanks"]]


QUIZ = yaml.safe_load(FIXTURE.read_text(encoding="utf-8"))


def _sections(node: dict[str, Any]) -> list[dict[str, Any]]:
    found = []
    for section in node.get("sections", []):
        found += [section, *_sections(section)]
    return found


def _points(question: dict[str, Any]) -> float:
    return 0 if question["type"] == "text_only" else question.get("points", 1)


def test_the_page_names_the_quiz_its_total_and_its_settings(page: Any) -> None:
    assert [_text(h) for h in page.xpath("//h1")] == [QUIZ["title"]]
    assert [(_text(a), a.get("href")) for a in page.xpath("//body/p/a")] == [("← Quizzes", "index.html")]
    total = 0.0
    for section in _sections(QUIZ):
        own = [_points(q) for q in section.get("questions", [])]
        if "select" in section:
            assert len(set(own)) == 1  # a draw of questions worth the same
            total += section["select"] * own[0]
        else:
            total += sum(own)
    assert _text(page.xpath("//p[@class='total']")[0]) == f"{total:g} points in all"
    words = {True: "Yes", False: "No"}
    shown = [(d.get("data-setting"), _text(d.xpath("./dt")[0]), _text(d.xpath("./dd")[0]))
             for d in page.xpath("//dl[@class='settings'][@aria-label='Quiz settings']/div")]
    expected = [(key, key.replace("_", " ").capitalize(),
                 f"{value} min" if key == "time_limit" else "Graded quiz" if value == "graded" else words.get(value, str(value)))
                for key, value in QUIZ["settings"].items()]
    assert shown == expected


def test_each_section_is_headed_by_its_title_and_a_draw_says_how_many(page: Any) -> None:
    sections = page.xpath("//section")
    assert [_text(s.xpath("./h2")[0]) for s in sections] == [s["title"] for s in _sections(QUIZ)]
    draws = {s.get("aria-labelledby"): [_text(e) for e in s.xpath("./p/em")] for s in sections}
    assert draws == {f"section-{s['id']}": ([f"Draws {s['select']} question at random"] if "select" in s else [])
                     for s in _sections(QUIZ)}


def test_each_question_is_numbered_titled_and_named_by_its_id(page: Any) -> None:
    numbered = [qid for qid in QUESTIONS if QUESTIONS[qid]["type"] != "text_only"]
    for n, qid in enumerate(numbered, 1):
        assert _text(_article(page, qid).xpath("./header/span[@class='number']")[0]) == f"{n}."
    for qid, q in QUESTIONS.items():
        header = _article(page, qid).xpath("./header")[0]
        assert [_text(t) for t in header.xpath("./span[@class='title']")] == ([q["title"]] if q.get("title") else [])
        assert _text(header.xpath("./span[@class='id']/code")[0]) == f"#{qid}"
    assert not _article(page, "intro-note").xpath("./header/span[@class='number']")


def test_each_kind_of_question_feedback_is_labelled(page: Any) -> None:
    labels = {"general": "Explanation", "correct": "If correct", "incorrect": "If incorrect", "partially_correct": "If partly correct"}
    for qid, q in QUESTIONS.items():
        for key, text in q.get("feedback", {}).items():
            shown = _answer(_article(page, qid), f"/div[@class='feedback feedback-{key}']/strong")
            assert [_text(s) for s in shown] == [labels[key]], (qid, key)


def test_a_question_s_warnings_are_listed_under_it_with_their_place_and_hint(page: Any) -> None:
    lines = FIXTURE.read_text(encoding="utf-8").split("\n")
    at = next(n for n, line in enumerate(lines) if line.strip() == "id: author")
    start = next(n for n in range(at, -1, -1) if lines[n].lstrip().startswith("- type:"))
    box = _article(page, "author").xpath("./div[@class='diagnostics']")
    assert len(box) == 1 and _text(box[0].xpath("./strong")[0]) == "Check warnings"
    items = box[0].xpath("./ul/li")
    assert [_text(i.xpath("./code")[0]) for i in items] == ["QB601"]
    assert _text(items[0].xpath("./small")[0]) == f"(tests/fixtures/all-types.yaml:{start + 1}:{lines[start].index('type') + 1})"
    assert " — see 'qti-builder docs " in _text(items[0])
    assert not _article(page, "year").xpath("./div[@class='diagnostics']")


def test_the_index_lists_the_quiz_with_its_questions_and_points(page: Any, tmp_path_factory: pytest.TempPathFactory) -> None:
    out = tmp_path_factory.mktemp("index")
    build_preview(BuildOptions(sources=[FIXTURE]), out)
    index = lxml.html.parse(str(out / "index.html")).getroot()
    assert [_text(h) for h in index.xpath("//h1")] == ["Quizzes"]
    entries = index.xpath("//body/ul/li")
    assert [(e.get("lang"), e.xpath("./a")[0].get("href"), _text(e.xpath("./a")[0])) for e in entries] \
        == [(QUIZ["language"], "all-types.html", QUIZ["title"])]
    total = _text(page.xpath("//p[@class='total']")[0])
    # Only warnings: a light mark with as many as its page lists, and no notice of errors.
    shown = page.xpath("//div[@class='diagnostics']/ul/li")
    assert len(shown) > 1 and not page.xpath("//div[@class='diagnostics errors'] | //*[@id='errors']")
    assert _text(entries[0]).endswith(f" — {len(QUESTIONS)} questions, {total}; {len(shown)} warnings")
    assert [_text(s) for s in entries[0].xpath("./span[@class='warned']")] == [f"{len(shown)} warnings"]
    assert not entries[0].xpath("./a[@class='not-built']")


#: The words the outline gives each kind, as an author reads them (written out here, not read from the code).
KIND_WORDS = {"single_choice": "single choice", "multiple_response": "multiple response", "true_false": "true/false",
              "short_answer": "short answer", "numerical": "numerical", "essay": "essay", "file_upload": "file upload",
              "matching": "matching", "ordering": "ordering", "fill_in_blank": "fill-in-the-blank", "text_only": "text-only item"}


def _spans() -> tuple[dict[str, tuple[int, int]], dict[str, tuple[int, int]]]:
    """Each section's and each question's lines in the fixture (1-based, first to last): a question
    runs to the line before the next question or section, a section to the line before the next
    section at its depth or above, the last ones to the file's last line."""
    lines = FIXTURE.read_text(encoding="utf-8").rstrip("\n").split("\n")
    starts = [(n + 1, len(line) - len(line.lstrip()), line.strip()) for n, line in enumerate(lines)
              if line.lstrip().startswith(("- type:", "- id:"))]
    questions: dict[str, tuple[int, int]] = {}
    sections: dict[str, tuple[int, int]] = {}
    for k, (first, depth, text) in enumerate(starts):
        if text.startswith("- type:"):
            following = [n for n, _, _ in starts[k + 1:]]
            qid = next(line.split(":", 1)[1].strip() for line in lines[first:] if line.strip().startswith("id:"))
            questions[qid] = (first, (following[0] - 1) if following else len(lines))
        else:
            ends = [n for n, d, t in starts[k + 1:] if t.startswith("- id:") and d <= depth]
            sections[text.split(":", 1)[1].strip()] = (first, (ends[0] - 1) if ends else len(lines))
    return sections, questions


def test_the_outline_lists_each_section_and_question_with_its_lines(page: Any) -> None:
    sections, lines = _spans()
    outline = page.xpath("//details[@class='outline']")[0]
    total = _text(page.xpath("//p[@class='total']")[0])
    assert _text(outline.xpath("./summary")[0]) == f"Outline: {len(QUESTIONS)} questions, {total}"
    assert [_text(th) for th in outline.xpath(".//thead//th")] == ["#", "type", "Answer", "score", "lines"]
    bodies = outline.xpath(".//tbody")
    assert [(b.get("data-section-line"), _text(b.xpath("./tr[@class='outline-section']/th")[0])) for b in bodies] \
        == [(str(sections[s["id"]][0]), f"{s['title']} (lines {sections[s['id']][0]}–{sections[s['id']][1]})")
            for s in _sections(QUIZ)]
    answers = {"true_false": lambda q: f"answer {str(q['answer']).lower()}", "matching": lambda q: f"{len(q['pairs'])} pairs",
               "ordering": lambda q: f"{len(q['items'])} items in order", "essay": lambda q: "model answer",
               "file_upload": lambda q: "model answer", "text_only": lambda q: "",
               "single_choice": lambda q: "answer " + ", ".join(c["id"] for c in q["choices"] if c.get("correct")),
               "multiple_response": lambda q: "answer " + ", ".join(c["id"] for c in q["choices"] if c.get("correct"))}
    rows = outline.xpath(".//tr[@class='outline-question']")
    assert [r.get("data-question") for r in rows] == list(QUESTIONS)
    for n, (row, (qid, q)) in enumerate(zip(rows, QUESTIONS.items()), 1):
        cells = [_text(c) for c in row.xpath("./td")]
        assert cells[:2] == [str(n), KIND_WORDS[q["type"]]], qid
        if q["type"] in answers:
            assert cells[2] == answers[q["type"]](q), qid
        else:
            assert cells[2].startswith(("answer ", "blanks ")), qid
        assert cells[3:] == [f"{_points(q):g}", f"{lines[qid][0]}–{lines[qid][1]}"], qid


#: The same in Korean (written out here, not read from the code).
KIND_WORDS_KO = {"single_choice": "단일 선택", "multiple_response": "복수 선택", "true_false": "참/거짓",
                 "short_answer": "단답형", "numerical": "수치형", "essay": "서술형", "file_upload": "파일 제출",
                 "matching": "연결형", "ordering": "순서 배열", "fill_in_blank": "빈칸 채우기", "text_only": "안내문"}


def _answer_ko(q: dict[str, Any]) -> str:
    """A question's answer as a Korean page's outline tells it, worked out from the fixture."""
    full = lambda answers: [a for a in answers if a.get("score", 100) == 100]  # noqa: E731
    if q["type"] in ("single_choice", "multiple_response"):
        return "정답 " + ", ".join(c["id"] for c in q["choices"] if c.get("correct"))
    if q["type"] == "true_false":
        return "정답 " + ("참" if q["answer"] else "거짓")
    if q["type"] == "short_answer":
        return "정답 " + " 또는 ".join(f"'{a['text']}'" for a in full(q["answers"]))
    if q["type"] == "numerical":
        best = full(q["answers"])[0]
        return f"정답 {best['value']:g}" + (f" ± {best['tolerance']:g}" if best.get("tolerance") else "")
    if q["type"] == "fill_in_blank":
        return "빈칸 " + "; ".join(" 또는 ".join(f"'{a}'" for a in b["answers"]) for b in q["blanks"])
    return {"essay": "모범 답안", "file_upload": "모범 답안", "matching": f"{len(q.get('pairs', []))}쌍",
            "ordering": f"항목 {len(q.get('items', []))}개의 순서", "text_only": ""}[q["type"]]


def test_a_korean_page_s_outline_names_each_kind_and_answer_in_korean(tmp_path: Path) -> None:
    # The fixture with its language made Korean: the page's words, the outline's rows too.
    source = tmp_path / "all-types.yaml"
    source.write_text(yaml.safe_dump({**QUIZ, "language": "ko"}, allow_unicode=True, sort_keys=False), encoding="utf-8")
    build_preview(BuildOptions(sources=[source]), tmp_path / "out")
    page = lxml.html.parse(str(tmp_path / "out" / "all-types.html")).getroot()
    outline = page.xpath("//details[@class='outline']")[0]
    assert [_text(th) for th in outline.xpath(".//thead//th")] == ["#", "유형", "정답", "점수", "줄"]
    rows = outline.xpath(".//tr[@class='outline-question']")
    assert [r.get("data-question") for r in rows] == list(QUESTIONS)
    for row, (qid, q) in zip(rows, QUESTIONS.items()):
        assert [_text(c) for c in row.xpath("./td")][1:3] == [KIND_WORDS_KO[q["type"]], _answer_ko(q)], qid


#: A Japanese and a Chinese page: each kind's name in the question's header and the outline, the
#: outline's heads, "Show answer" and the answer's head of a matching question (written out here).
PAGE_WORDS = {
    "ja": ({"single_choice": "単一選択", "multiple_response": "複数選択", "true_false": "正誤", "short_answer": "短答",
            "numerical": "数値", "essay": "記述式", "file_upload": "ファイル提出", "matching": "組み合わせ", "ordering": "並べ替え",
            "fill_in_blank": "穴埋め", "text_only": "説明文"}, ["#", "種類", "正解", "得点", "行"], "正解を表示", "正しい組み合わせ"),
    "zh": ({"single_choice": "单选", "multiple_response": "多选", "true_false": "判断", "short_answer": "简答",
            "numerical": "数值", "essay": "论述", "file_upload": "文件上传", "matching": "匹配", "ordering": "排序",
            "fill_in_blank": "填空", "text_only": "说明文字"}, ["#", "题型", "答案", "得分", "行"], "显示答案", "正确配对"),
}


@pytest.mark.parametrize("language", sorted(PAGE_WORDS))
def test_a_japanese_or_chinese_page_names_each_kind_and_its_words_in_its_language(tmp_path: Path, language: str) -> None:
    names, heads, show, pairs = PAGE_WORDS[language]
    source = tmp_path / "all-types.yaml"
    source.write_text(yaml.safe_dump({**QUIZ, "language": language}, allow_unicode=True, sort_keys=False), encoding="utf-8")
    build_preview(BuildOptions(sources=[source]), tmp_path / "out")
    page = lxml.html.parse(str(tmp_path / "out" / "all-types.html")).getroot()
    for qid, q in QUESTIONS.items():
        assert _text(_article(page, qid).xpath("./header/span[@class='kind']")[0]) == names[q["type"]], qid
    outline = page.xpath("//details[@class='outline']")[0]
    assert [_text(th) for th in outline.xpath(".//thead//th")] == heads
    rows = outline.xpath(".//tr[@class='outline-question']")
    assert [_text(row.xpath("./td")[1]) for row in rows] == [names[q["type"]] for q in QUESTIONS.values()]
    assert {_text(s) for s in page.xpath("//details[@class='answer']/summary")} == {show}
    matching = next(qid for qid, q in QUESTIONS.items() if q["type"] == "matching")
    assert _text(_answer(_article(page, matching), "//strong")[0]) == pairs


#: What "Show answer" heads each kind's answers with, as an author reads it (written out here).
ANSWER_LABELS = {"short_answer": "Accepted answers", "numerical": "Accepted answers", "essay": "Model answer (graders only)",
                 "file_upload": "Model answer (graders only)", "fill_in_blank": "Blanks", "matching": "Correct pairs",
                 "ordering": "Correct order"}


@pytest.mark.parametrize("qid", [qid for qid, q in QUESTIONS.items() if q["type"] in ANSWER_LABELS])
def test_each_kind_s_answers_are_headed_by_what_they_are(page: Any, qid: str) -> None:
    label = ANSWER_LABELS[QUESTIONS[qid]["type"]]
    head = _answer(_article(page, qid), "//strong")[0]
    assert _text(head) == label
    if QUESTIONS[qid]["type"] in ("short_answer", "numerical", "fill_in_blank"):
        # all-types.yaml's are not case sensitive: the label says nothing of case.
        assert _text(head.getparent()) == label


CASE_SENSITIVE = """title: Case
id: case
language: en
sections:
  - id: all
    title: All
    questions:
      - type: short_answer
        id: element
        stem: The symbol of sodium?
        case_sensitive: {flag}
        answers: [{{text: Na, score: 100}}]
      - type: fill_in_blank
        id: formula
        stem: "Water is [[b1]]."
        case_sensitive: {flag}
        blanks:
          - {{id: b1, kind: text, answers: [H2O]}}
"""


@pytest.mark.parametrize("flag", [True, False])
def test_a_case_sensitive_answer_says_so_and_only_then(tmp_path: Path, flag: bool) -> None:
    source = tmp_path / "case.yaml"
    source.write_text(CASE_SENSITIVE.format(flag=str(flag).lower()), encoding="utf-8")
    build_preview(BuildOptions(sources=[source]), tmp_path / "out")
    case = lxml.html.parse(str(tmp_path / "out" / "case.html")).getroot()
    note = " (case sensitive)" if flag else ""
    assert _text(_answer(_article(case, "element"), "/p[strong]")[0]) == f"Accepted answers{note}"
    assert _text(_answer(_article(case, "formula"), "/p[strong]")[0]) == f"Blanks{note}"
