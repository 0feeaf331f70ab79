"""``qti-builder check --outline``: the paper as read, parsed back from what the command prints, and
the stated total (``총점 42``, ``100点満点``, ``满分100分``, ...) checked against the questions'
points (QB219).

Every expectation is read by hand from the fixture (tests/fixtures/exam-ko.md) or from the small
papers written below, never from the command's own output.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import ROOT
from helpers.cli import run

from qti_builder.outline import Outline, build_outline, read_lines
from qti_builder.readers import read_quiz
from qti_builder.diagnostics import DiagnosticSink

FIXTURE = ROOT / "tests" / "fixtures" / "exam-ko.md"

QUESTION = re.compile(r"^\s+(\d+)\. (.+?) \| (.+?) \| (.+?) \| lines? (\d+)(?:-(\d+))?$")
PASSAGE = re.compile(r"^\s+passage \(lines? (\d+)(?:-(\d+))?\): questions? (\d+)(?:-(\d+))?$")
SECTION = re.compile(r"^\s*section (.+) \(lines? (\d+)(?:-(\d+))?\)$")
TOTAL = re.compile(r"^total: (\d+) questions?, (\S+) points?(?:; the paper states (.+) \((matches|differs by (\S+))\))?$")


@dataclass
class Parsed:
    sections: list[tuple[str, int, int]]
    passages: list[tuple[int, int, int, int]]
    questions: list[tuple[int, str, str, str, int, int]]
    total: re.Match[str]


def parse(stdout: str) -> Parsed:
    """The outline lines of ``stdout``; every line between 'outline' and 'total:' must be one of
    the three shapes."""
    lines = stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("outline "))
    end = next(i for i, line in enumerate(lines) if line.startswith("total: "))
    parsed = Parsed([], [], [], TOTAL.match(lines[end]))  # type: ignore[arg-type]
    assert parsed.total, lines[end]
    for line in lines[start + 1:end]:
        if m := QUESTION.match(line):
            first = int(m[5])
            parsed.questions.append((int(m[1]), m[2], m[3], m[4], first, int(m[6] or first)))
        elif m := PASSAGE.match(line):
            parsed.passages.append((int(m[1]), int(m[2] or m[1]), int(m[3]), int(m[4] or m[3])))
        elif m := SECTION.match(line):
            parsed.sections.append((m[1], int(m[2]), int(m[3] or m[2])))
        else:
            raise AssertionError(f"an outline line of no known shape: {line!r}")
    return parsed


def test_the_korean_exam_outline_shows_each_question_as_the_paper_has_it() -> None:
    code, out, _ = run("check", str(FIXTURE), "--outline", "-j", "1", "--lang", "en")
    assert code == 0
    parsed = parse(out)
    # Read from the fixture by hand: sections Ⅰ-Ⅳ at lines 10, 64, 73, 99; the [3~4] passage on
    # lines 27-30 before question 3; each question's first and last line, type, answer and points.
    assert [(title.split(".")[0], first) for title, first, _ in parsed.sections] == [("Ⅰ", 10), ("Ⅱ", 64), ("Ⅲ", 73), ("Ⅳ", 99)]
    assert parsed.passages == [(27, 30, 3, 4)]
    assert parsed.questions[:8] == [
        (1, "single choice", "answer ①", "3 points", 12, 19),
        (2, "multiple response", "answer ③, ⑤", "4 points", 21, 25),
        (3, "single choice", "answer ②", "3 points", 32, 39),
        (4, "single choice", "answer 나", "2 points", 41, 46),
        (5, "single choice", "answer ④", "3 points", 48, 57),
        (6, "single choice", "answer ④", "3 points", 59, 62),
        (7, "true/false", "answer O", "2 points", 66, 67),
        (8, "true/false", "answer X", "2 points", 69, 71),
    ]
    assert parsed.questions[8][:4] == (9, "short answer", "answer '이성계' or '태조 이성계'", "3 points")
    assert [q[1] for q in parsed.questions[12:]] == ["matching", "ordering", "essay", "essay"]
    assert [q[4] for q in parsed.questions[8:]] == [75, 78, 81, 84, 87, 93, 101, 105]
    assert parsed.total[1] == "16" and parsed.total[2] == "55" and parsed.total[3] is None


def test_the_outline_counts_the_lines_of_every_question_and_no_line_twice() -> None:
    sink = DiagnosticSink()
    read = read_quiz(FIXTURE, sink)
    assert read, [d.render() for d in sink.items]
    outline: Outline = build_outline(*read, read_lines(FIXTURE))
    spans = [(q.first_line, q.last_line) for q in outline.iter_questions()]
    assert all(first <= last for first, last in spans)
    assert all(a[1] < b[0] for a, b in zip(spans, spans[1:])), spans
    lines = read_lines(FIXTURE)
    assert all(lines[last - 1].strip() for _, last in spans), "a question's range ends on a written line"


#: Per language: the quiz's answer label, a head line stating a total of 6 (which the two
#: questions of 3 points make), and one stating 10 (which they do not), with where its number is.
STATED = {
    "ko": ("정답", "※ 총점 6점", "2024학년도 기말고사 (총 10점)"),
    "ja": ("正解", "満点 6点", "期末テスト（10点満点）"),
    "zh": ("答案", "（满分：6分）", "期末考试（共10分）"),
    "en": ("Answer", "Total: 6 points", "Final exam (total 10 points)"),
    "de": ("Antwort", "Gesamtpunktzahl: 6", "Klausur: insgesamt 10 Punkte"),
    "fr": ("Réponse", "Barème total : 6 points", "Examen noté sur 10"),
    "es": ("Respuesta", "Puntuación total: 6", "Examen final (puntuación total: 10)"),
    "pt": ("Resposta", "Pontuação total: 6 pontos", "Avaliação (pontuação total 10)"),
    "it": ("Risposta", "Punteggio totale: 6", "Verifica (totale 10 punti)"),
}


def paper(language: str, head: str, title: str = "Paper") -> str:
    label = STATED[language][0]
    return (f"---\ntitle: \"{title}\"\nlanguage: {language}\n---\n\n{head}\n\n"
            f"1. 2 + 2 = ? {{#a points=3}}\n\nA) 3\nB) 4\n\n{label}: B\n\n"
            f"2. 3 + 3 = ? {{#b points=3}}\n\nA) 6\nB) 5\n\n{label}: A\n")


@pytest.mark.parametrize("language", list(STATED))
def test_a_stated_total_that_the_questions_make_passes(tmp_path: Path, language: str) -> None:
    source = tmp_path / "paper.md"
    source.write_text(paper(language, STATED[language][1]), encoding="utf-8")
    code, out, err = run("check", str(source), "--outline", "-j", "1", "--lang", "en")
    assert code == 0, err
    total = parse(out).total
    assert (total[2], total[4]) == ("6", "matches")
    assert "6" in total[3] and total[3] in STATED[language][1]


@pytest.mark.parametrize("language", list(STATED))
def test_a_stated_total_in_the_title_that_the_questions_miss_is_qb219_at_its_words(tmp_path: Path, language: str) -> None:
    title = STATED[language][2]
    source = tmp_path / "paper.md"
    source.write_text(paper(language, "", title), encoding="utf-8")
    code, out, err = run("check", str(source), "--outline", "-j", "1", "--lang", "en")
    assert code == 1
    found = [line for line in err.splitlines() if "error[QB219]" in line]
    assert len(found) == 1, err
    where = re.match(r".*paper\.md:(\d+):(\d+): error\[QB219\]: the paper says (.+), its questions add up to 6 points \(4 missing\)", found[0])
    assert where, found[0]
    # The title is on line 2, its value after 'title: "'; the column is where the total's words start.
    column = len('title: "') + title.index(where[3]) + 1
    assert (int(where[1]), int(where[2])) == (2, column)
    assert "10" in where[3]
    # The outline is printed all the same, with the gap.
    assert parse(out).total[4] == "differs by 4"


def test_front_matter_total_and_the_gap_per_section(tmp_path: Path) -> None:
    source = tmp_path / "paper.md"
    text = paper("ko", "").replace("language: ko\n", "language: ko\ntotal: 42\n")
    text = text.replace("{#b points=3}", "{#b}")  # its points not found: worth 1
    source.write_text(text, encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1", "--lang", "en")
    assert code == 1
    assert re.search(r"paper\.md:4:8: error\[QB219\]: the paper says total 42, its questions add up to 4 points \(38 missing\): "
                     r".*4 points in 2 questions; 1 of them worth 1 point", err), err


def test_a_section_total_is_not_the_paper_total(tmp_path: Path) -> None:
    # '(총 15점)' in a section's heading is that section's, not the paper's: nothing to compare.
    source = tmp_path / "paper.md"
    source.write_text(paper("ko", "# Ⅰ. 객관식 (각 3점, 총 15점)"), encoding="utf-8")
    code, out, err = run("check", str(source), "--outline", "-j", "1", "--lang", "en")
    assert code == 0, err
    assert parse(out).total[3] is None


def test_the_preview_shows_the_same_outline(tmp_path: Path) -> None:
    from lxml import html

    from qti_builder import BuildOptions
    from qti_builder.preview import build_preview

    build_preview(BuildOptions(sources=[FIXTURE]), tmp_path)
    page = html.fromstring((tmp_path / "hanguksa-final.html").read_text(encoding="utf-8"))
    rows = page.xpath("//details[@class='outline']//tr[@class='outline-question']")
    cells = [[td.text_content() for td in row.xpath("td")] for row in rows]
    assert len(cells) == 16
    # The same rows as 'check --outline', in the page's language (a Korean paper: Korean words).
    assert cells[0] == ["1", "단일 선택", "정답 ①", "3", "12–19"]
    assert cells[6] == ["7", "참/거짓", "정답 O", "2", "66–67"]
    passages = page.xpath("//details[@class='outline']//tr[@class='outline-passage']/td/text()")
    assert passages == ["지문: 3–4번", "27–30"]  # the preview's words in the quiz's language
    assert "55" in page.xpath("string(//details[@class='outline']/summary)")


def test_qb219_in_the_papers_language(tmp_path: Path) -> None:
    source = tmp_path / "paper.md"
    source.write_text(paper("ko", "", STATED["ko"][2]), encoding="utf-8")
    code, _, err = run("check", str(source), "-j", "1")
    assert code == 1
    assert "error[QB219]: 시험지에는 총 10점(이)라고 되어 있지만 문항 배점의 합은 6점입니다 (4점 부족)" in err, err


def test_the_outline_numbers_questions_as_the_paper_prints_them(tmp_path: Path) -> None:
    # A paper that starts at question 18 (the English part of a 수능 paper): the teacher looks for 18.
    source = tmp_path / "paper.md"
    source.write_text(paper("ko", "").replace("1. 2 + 2", "18. 2 + 2").replace("2. 3 + 3", "19. 3 + 3"), encoding="utf-8")
    code, out, err = run("check", str(source), "--outline", "-j", "1", "--lang", "en")
    assert code == 0, err
    assert [q[0] for q in parse(out).questions] == [18, 19]


def test_the_stated_total_survives_the_markdown_writer(tmp_path: Path) -> None:
    # import writes sources with writers/markdown_source.py: the stated total is written as
    # 'total:' and read back as the same field.
    from qti_builder.writers.markdown_source import read_back, to_markdown

    source = tmp_path / "paper.md"
    source.write_text(paper("ja", "", STATED["ja"][1]), encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(source, sink)
    assert read and read[0].stated_points == 6
    text = to_markdown(read[0])
    assert "\ntotal: 6\n" in text
    again = read_back(text, ".md")
    assert again is not None and again.stated_points == 6


@pytest.mark.parametrize("line, points", [
    ("총점 42", 42), ("※ 총점: 100점", 100), ("100점 만점", 100), ("(총 10점)", 10),
    ("１００点満点", 100), ("満点：５０点", 50), ("満点 100点", 100),
    ("满分：100分", 100), ("本试卷共4页，满分100分", 100), ("（共18分）", 18), ("总分 100 分", 100),
    ("Total: 50 points", 50), ("Total marks: 50", 50), ("(total 10 points)", 10), ("40 points total", 40),
    ("Gesamtpunktzahl: 40", 40), ("insgesamt 40 Punkte", 40), ("Barème total : 20", 20), ("noté sur 20", 20),
    ("Puntuación total: 10", 10), ("Total: 10 puntos", 10), ("Pontuação total: 10 pontos", 10),
    ("Punteggio totale: 30", 30), ("Totale: 30 punti", 30),
])
def test_stated_total_forms(line: str, points: float) -> None:
    from qti_builder.readers.stated_total import find_stated_total

    found = find_stated_total(["", line])
    assert found is not None and found.points == points and found.index == 1
    assert line[found.column - 1:].startswith(found.written)  # where the words are, as written (full-width too)


@pytest.mark.parametrize("line", [
    "(각 3점)", "（每题4分）", "每题4分，共", "(4 pts each)", "（各３点）", "The total of 3 apples", "in total 3 questions",
    "1. 다음 중 옳은 것은? (3점)", "Answer: 42",
])
def test_rules_and_prose_are_no_stated_total(line: str) -> None:
    from qti_builder.readers.stated_total import find_stated_total

    assert find_stated_total([line]) is None


PASTED = """2024학년도 1학기 기말고사 과학
총점 20점

Ⅰ. 객관식 (각 3점, 총 6점)

1. 물의 화학식은?
① H2O ② CO2 ③ O2
정답: ①

2. 지구에서 가장 가까운 별은?
① 시리우스 ② 태양 ③ 북극성
정답: ②
"""


def test_a_pasted_paper_keeps_its_stated_total_through_import(tmp_path: Path) -> None:
    # import reads the paper with build's reader and runs build's checks: the head line '총점 20점'
    # is the paper's total (not a section), the questions add up to 6 (QB219, at that line of the
    # paste), and nothing is written; the section's own '총 6점' stays its. The same paper as a
    # source: the same error at the same line (shifted by the front matter), and the outline.
    pasted = tmp_path / "paper.txt"
    pasted.write_text(PASTED, encoding="utf-8")
    code, _, err = run("import", str(pasted), "--out", str(tmp_path / "source"), "--lang", "en")
    said = "error[QB219]: the paper says 총점 20점, its questions add up to 6 points (14 missing)"
    assert code == 1 and f"paper.txt:2:1: {said}" in err and not (tmp_path / "source").exists(), err
    title, _, body = PASTED.partition("\n")
    (tmp_path / "source").mkdir()
    (tmp_path / "source" / "paper.md").write_text(f"---\ntitle: {title}\nlanguage: ko\n---\n{body}", encoding="utf-8")
    code, out, err = run("check", str(tmp_path / "source"), "--outline", "-j", "1", "--lang", "en")
    assert code == 1
    assert f"paper.md:5:1: {said}" in err, err
    parsed = parse(out)
    assert [title for title, _, _ in parsed.sections] == ["Ⅰ. 객관식"]
    assert parsed.total[4] == "differs by 14"
