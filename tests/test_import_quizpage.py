"""Importing quiz pages: Markdown (or text) pages as course designers keep them, with answers in
``<details>`` blocks, code fences and tables, HTML quizzes with inputs, mkdocs-quiz blocks,
options in every common notation and answer keys at the end.

The inputs are tests/fixtures/import/quizpage/, one page per kind of construct, each with broken
cases. What each page should give is stated here by hand from the page (which option is right,
which line a diagnostic points at), not copied from the importer's output; every imported page
is written as a source and built.
"""

from __future__ import annotations

import re
import tempfile
from pathlib import Path
from typing import Any

import pytest
from helpers import ROOT
from helpers.cli import run
from helpers.importing import builds, messages, run_import
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.importers import detect, import_path
from qti_builder.importers.quizpage.paper import page_form
from qti_builder.readers.markdown import syntax as S
from qti_builder.writers.markdown_source import read_back, write_source

PAGES = ROOT / "tests/fixtures/import/quizpage"


def imported(name: str, tmp_path: Path) -> tuple[Any, list[str], Any]:
    """The page's quiz, its diagnostics, and the import (for its counts); the quiz builds."""
    quizzes, sink = run_import(PAGES / name)
    assert not sink.errors, messages(sink)
    item = quizzes[0]
    assert_nothing_revealed(item.quiz)
    builds(item.quiz, item.media, tmp_path)
    return item.quiz, messages(sink), item


def assert_nothing_revealed(quiz: Any) -> None:
    """No text a candidate sees before answering (stems, options) carries an answer label."""
    for question in quiz.iter_questions():
        visible = [question.stem] + [c.text for c in getattr(question, "choices", [])]
        for text in visible:
            assert S.label_lines(text) == [], (question.id, text)
            prose = re.sub(r"(?ms)^\s*(```|~~~).*?^\s*\1[`~]*\s*$", "", text)  # code shows code, not answers
            assert not re.search(r"(?i)\b(answer|정답|solution)\s*[:：]", prose), (question.id, text)


def correct(question: Any) -> list[str]:
    return [c.id for c in question.choices if c.correct]


def texts(question: Any) -> list[str]:
    return [c.text for c in question.choices]


# -- recognising a page ------------------------------------------------------------------------------


def test_every_page_is_a_quiz_page() -> None:
    for path in sorted(PAGES.iterdir()) + [PAGES / "site/organelles.md"]:
        if path.is_file():  # site/: a page with the images of its site
            assert detect(path).name == "quizpage", path.name


def test_a_page_with_xml_tags_is_read_as_text_not_refused_as_xml(tmp_path: Path) -> None:
    """Moodle's sniffer used to claim any file with '<question' or '<quiz' in its first 16 KiB, and
    then refused it as XML that is not well-formed (QB701)."""
    page = "# Tags\n\n1. What does the `<question>` element hold in a `<quiz>`?\nA) one question\nB) the bank\nAnswer: A\n"
    for name in ("tags.md", "tags.txt"):
        (tmp_path / name).write_text(page, encoding="utf-8")
        assert detect(tmp_path / name).name == "quizpage"
        quizzes, sink = run_import(tmp_path / name)
        assert not sink.errors and correct(next(quizzes[0].quiz.iter_questions())) == ["A"]
    html = tmp_path / "quiz.html"
    html.write_text('<div class="quiz"><p>Which tag starts a Moodle export?</p>\n'
                    '<label><input type="radio" name="a" checked> &lt;quiz&gt;</label>\n'
                    '<label><input type="radio" name="a"> &lt;question&gt;</label></div>\n', encoding="utf-8")
    assert detect(html).name == "quizpage"  # HTML, not XML: `checked` has no value
    quizzes, sink = run_import(html)
    assert not sink.errors and correct(next(quizzes[0].quiz.iter_questions())) == ["A"]
    # XML exports are still recognised by their root element, after a declaration and comments.
    moodle = tmp_path / "export.txt"
    moodle.write_text('<?xml version="1.0"?>\n<!-- exported -->\n<quiz><question type="category"/></quiz>\n', encoding="utf-8")
    assert detect(moodle).name == "moodle"


# -- <details> blocks and code fences ---------------------------------------------------------------


def test_answers_in_details_blocks_and_code_fences(tmp_path: Path) -> None:
    quiz, found, item = imported("details.md", tmp_path)
    assert found == [
        "details.md:71:1: warning[QB711]: question 'Which keyword leaves a loop early?': the hint at line 71 is lost "
        "(a source has no hints)\n    hint: add it to the question's text if students should see it",
    ]
    assert quiz.title == "Python basics"
    assert quiz.description == "A self-check after chapter 2. Open each block only once you have answered."
    assert [s.title for s in quiz.sections] == ["Types", "Code"]
    immutable, length, strings = quiz.sections[0].questions
    # <details><summary>Answer</summary> with Markdown inside, blank lines around it.
    assert immutable.stem == "Which built-in type is immutable?"
    assert texts(immutable) == ["list", "dict", "tuple", "set"] and correct(immutable) == ["C"]
    assert immutable.feedback.general == "Tuples cannot be changed after they are made; lists, dicts and sets can."
    # <summary>정답 보기</summary> with labelled lines inside one HTML block.
    assert length.stem == 'What does `len("héllo")` return?' and correct(length) == ["A"]
    assert length.feedback.general == "len counts characters, not bytes."
    # <summary>Show answer</summary>True</details> on one line, no options: true/false.
    assert strings.type == "true_false" and strings.answer is True
    printed, double, loop, count = quiz.sections[1].questions
    # A code fence in the question stays in the stem; "Answer:" then a fence gives the answer.
    assert printed.stem == "What does this print?\n\n```python\nx = [1, 2, 3]\nprint(x[-1])\n```"
    assert texts(printed) == ["1", "3", "an IndexError"] and correct(printed) == ["B"]
    # <summary>Solution</summary> around a fence, no options: an essay with the code as its model answer.
    assert double.type == "essay" and double.model_answer == "```python\ndef double(n):\n    return 2 * n\n```"
    # A hint block is not the answer, and not the question's text either; the answer block after it is.
    assert correct(loop) == ["A"] and "switch" not in loop.stem and not loop.feedback.general
    # <pre><code> in an HTML answer block: a fence, its lines as they were (not broken at "line.").
    assert count.model_answer == "```python\nfor i in range(1, 4):\n    print(i)  # one number a line.\n```\n\nAny loop works."
    assert item.changed == {"single_choice": 1} and not item.skipped


def test_answers_in_collapsible_admonitions(tmp_path: Path) -> None:
    """mkdocs-material's ``??? success "Answer"`` blocks are the Markdown form of <details>."""
    quiz, found, _ = imported("admonitions.md", tmp_path)
    assert found == []
    atp, osmosis, dna = quiz.iter_questions()
    assert texts(atp) == ["Nucleus", "Mitochondrion"] and correct(atp) == ["B"]  # not a third option
    assert atp.feedback.general == "Mitochondria make ATP."
    # ???+ with a fence after a blank line: the essay's model answer, dedented.
    assert osmosis.type == "essay" and osmosis.model_answer == "```text\nWater moves across a membrane.\n```"
    # !!! note "Remember" after the answer block goes on with the explanation, as text after one does.
    assert osmosis.feedback.general == "Remember\nCells are small."
    assert dna.type == "true_false" and dna.answer is True  # ??? answer: the type names the block


def test_answers_never_in_what_students_read(tmp_path: Path) -> None:
    quiz, found, _ = imported("hidden-answers.md", tmp_path)  # imported() checks every stem and option
    assert found == []
    product, prime, even, odd = quiz.iter_questions()
    # A number alone is the number students give (issue 22: it was an essay's model answer).
    assert product.stem == "What is 7 × 8?" and product.type == "numerical" and [a.value for a in product.answers] == [56]
    assert texts(prime) == ["9", "11", "15"] and correct(prime) == ["B"]  # "15 Answer: B" split
    # A summary that says nothing ("Click me") over a labelled answer: an answer block all the same.
    assert correct(even) == ["B"] and "Click me" not in even.stem
    # A paragraph with "Answer:" after the inputs is the feedback, not the next question's text.
    assert correct(odd) == ["B"] and odd.feedback.general == "Answer: 3, because 3 = 2 × 1 + 1."


def test_the_seed_as_the_markdown_page_it_was_scraped_from(tmp_path: Path) -> None:
    """shared/seed/ray-train-tune-quiz.ko.txt is a scrape of a page like this one: its answers
    hidden in <details><summary>정답 보기</summary> blocks. The page gives the same questions and
    answers as the scrape, and keeps the code spans the scrape lost."""
    quiz, found, _ = imported("ray-quiz.ko.md", tmp_path)
    assert found == []
    assert quiz.title == "Ray Train과 Ray Tune 퀴즈" and quiz.language == "ko"
    assert [s.title for s in quiz.sections] == ["객관식 문제", "서술형 문제"]
    scaling, tune, essay = quiz.iter_questions()
    assert scaling.stem == "Ray Train의 `ScalingConfig`가 하는 역할은 무엇인가요?"
    assert len(scaling.choices) == 4 and correct(scaling) == ["A"]  # as in the seed (its third question)
    assert scaling.feedback.general.startswith("`ScalingConfig`는 Trainer에게")
    assert correct(tune) == ["A"] and tune.feedback.general == "Ray Tune은 Ray 위에 만들어진 하이퍼파라미터 튜닝 라이브러리입니다."
    # The block under a question without options is its model answer, in two paragraphs.
    assert essay.type == "essay"
    assert essay.model_answer == ("`Trainer`(예: `TorchTrainer`)는 사용자가 작성한 학습 함수를 감쌉니다.\n\n"
                                  "`ScalingConfig`는 Trainer에게 워커를 몇 개 실행할지 알려줍니다.")


# -- HTML quizzes -----------------------------------------------------------------------------------


def test_html_quizzes_with_inputs(tmp_path: Path) -> None:
    quiz, found, item = imported("html-quiz.md", tmp_path)
    assert found == [
        "html-quiz.md:23:1: warning[QB710]: question 'What does DNS stand for?': an <input type=\"text\"> cannot be imported "
        "(an HTML page does not say which answers it accepts); skipped\n    hint: write that question by hand",
        "html-quiz.md:29:1: warning[QB716]: question 'Which of these is a private IPv4 range?': radio buttons take one answer, "
        "but 2 (A, C) are marked correct; imported as multiple response",
        "html-quiz.md:37:1: warning[QB716]: question 'Which command shows the route table on Linux?': the options checked (A) "
        "are not those marked correct (B); the ones marked correct were kept\n"
        "    hint: a checked input may be only the page's default selection",
    ]
    layer, tcp, https, private, route = quiz.iter_questions()
    # Radio buttons in labels, the right one `checked`, a feedback element.
    assert layer.type == "single_choice" and layer.stem == "Which layer does IP belong to?"
    assert texts(layer) == ["Transport", "Network", "Application"] and correct(layer) == ["B"]
    assert layer.feedback.general == "IP routes packets between networks: the <b>network</b> layer."
    # Checkboxes with label[for], data-correct="true"/"false": multiple response, even split by blank lines.
    assert tcp.type == "multiple_response" and tcp.stem == "Which protocols use TCP?"
    assert texts(tcp) == ["HTTP", "DNS over UDP", "SSH"] and correct(tcp) == ["A", "C"]
    # The HTML mkdocs-quiz itself writes: a bare `correct` attribute, a hidden content section.
    assert texts(https) == ["80", "443"] and correct(https) == ["B"] and https.feedback.general == "443 is HTTPS's port."
    # class="correct" on the <li> that holds the input; two of them on radio buttons.
    assert private.type == "multiple_response" and correct(private) == ["A", "C"]
    assert texts(route) == ["ifconfig", "ip route"] and correct(route) == ["B"]
    assert item.skipped == {"HTML text input": 1}


# -- mkdocs-quiz --------------------------------------------------------------------------------------


def test_mkdocs_quiz_blocks(tmp_path: Path) -> None:
    quiz, found, item = imported("mkdocs-quiz.md", tmp_path)
    assert found == [
        "mkdocs-quiz.md:20:1: warning[QB711]: question 'Which of these rewrite history?': line 20 is neither 'answer: ' nor "
        "'answer-correct: ' (mkdocs-quiz ignores it too): 'show-correct: true' is lost",
        "mkdocs-quiz.md:26:1: warning[QB713]: the quiz block at line 26 was skipped: an mkdocs-quiz block must start with "
        "'question: ' (the plugin refuses it too)\n    hint: start the block with 'question: ' and list 'answer: ' and "
        "'answer-correct: ' lines",
        "mkdocs-quiz.md:32:1: warning[QB713]: question 'Which branch is the default in new repositories?' was skipped: none of "
        "its answers is 'answer-correct: '\n    hint: mark the right answer 'answer-correct: '",
        # Prose between quizzes belongs to no question.
        "mkdocs-quiz.md:40:1: warning[QB711]: line 40 belongs to no question; skipped",
    ]
    assert quiz.description == "Quizzes for the mkdocs-quiz plugin."
    commit, history, ignore = quiz.iter_questions()
    # One answer-correct: radio buttons, a single choice; content: is shown once answered.
    assert commit.type == "single_choice" and commit.stem == "Which command records staged changes?"
    assert texts(commit) == ["git add", "git commit", "git push"] and correct(commit) == ["B"]
    assert commit.feedback.general == "A `commit` records what `add` staged."
    # Two answer-correct: checkboxes; answers in HTML become Markdown; blank lines at the block's ends are dropped.
    assert history.type == "multiple_response"
    assert texts(history) == ["`git rebase`", "`git log`", "git commit --amend"] and correct(history) == ["A", "C"]
    assert history.feedback.general == "Both make new commits in place of old ones."
    # quiz-start … quiz-end with quiz-question:, quiz-answer-correct:, quiz-content: (the first releases).
    assert ignore.stem == "Which file lists what Git leaves untracked?"
    assert texts(ignore) == [".gitconfig", "`.gitignore`"] and correct(ignore) == ["B"]
    assert ignore.feedback.general == "Patterns in `.gitignore` are not tracked."
    assert item.skipped == {"mkdocs-quiz": 2} and item.changed == {"multiple_response": 1}


# -- options ----------------------------------------------------------------------------------------


def test_option_notations(tmp_path: Path) -> None:
    quiz, found, item = imported("options.md", tmp_path)
    assert found == [
        "options.md:41:9: warning[QB716]: question 'The median of 1, 3, 5, 7 is 4.': the options marked correct (A) and the "
        "answer 'B' disagree; the marked options were kept",
    ]
    outliers, pvalue, plot, spread, scale, median = quiz.iter_questions()
    assert texts(outliers) == ["mean", "median", "range"] and correct(outliers) == ["B"]  # a. b. c., "Answer: b"
    assert texts(pvalue)[1] == "data at least this extreme, if the null hypothesis is true" and correct(pvalue) == ["B"]  # (a)
    assert texts(plot) == ["a histogram", "a pie chart", "a table"] and correct(plot) == ["A"]  # A - text
    # - [x] / - [ ]: the checked ones are right, without an answer line.
    assert spread.type == "multiple_response"
    assert texts(spread) == ["variance", "mode", "interquartile range", "mean"] and correct(spread) == ["A", "C"]
    assert texts(scale) == ["nominal", "ordinal", "ratio"] and correct(scale) == ["C"]  # a) …, "Answer: c) ratio"
    assert scale.feedback.general == "Only a ratio scale has a meaningful zero."
    assert correct(median) == ["A"]  # [x] True, although "Answer: B" says otherwise (reported)
    assert not item.skipped


# -- answer keys -------------------------------------------------------------------------------------


def test_an_answer_key_at_the_end(tmp_path: Path) -> None:
    quiz, found, item = imported("answer-key.md", tmp_path)
    assert found == [
        "answer-key.md:37:3: warning[QB716]: question 3 (line 15) gives the answer 'A', the answer key 'B'; the question's own "
        "answer was kept\n    hint: correct the one that is wrong",
        "answer-key.md:40:4: warning[QB716]: the answer key gives question 5 twice: 'B' at line 39 and 'C' here; the first was kept",
        "answer-key.md:46:1: warning[QB716]: the answer key gives question 2 twice: 'C' at line 36 and 'A' here; the first was kept",
    ]
    # "## Answer key" is no section; its lines are no questions.
    assert [s.title for s in quiz.sections] == ["Chemistry check"]
    sodium, gas, noble, water, charge, ph = quiz.iter_questions()
    assert correct(sodium) == ["B"]  # 1. B
    assert correct(gas) == ["C"]  # 2) C
    assert correct(noble) == ["A"]  # its own "Answer: A", not the key's 3-B
    assert water.type == "true_false" and water.answer is True  # Q4: true
    assert correct(charge) == ["B"]  # 5. B, the first of two
    assert correct(ph) == ["B"]  # 6 - B
    assert not item.skipped


def test_a_key_numbered_otherwise_is_refused_at_its_entries() -> None:
    """A pasted paper (no web page's form) is read by the exam reader, as build reads it: a key
    numbered 1–3 under questions numbered 11–13 is an error at each entry, never applied by a guess."""
    quizzes, sink = run_import(PAGES / "renumbered.txt")
    assert quizzes == []
    assert sorted((d.code, d.span.line, d.span.column) for d in sink.errors) == [
        ("QB120", 3, 1), ("QB120", 8, 1), ("QB120", 12, 1), ("QB187", 17, 4), ("QB187", 18, 4), ("QB187", 19, 4)]
    assert any("the paper has no question 1" in d.message for d in sink.errors)


def test_questions_numbered_twice_are_refused_as_build_refuses_them() -> None:
    """A Markdown page that is an exam paper (no web page's form) is read by the exam reader: a key
    after Part 2 answers Part 2's question 1 first, and the paper's other question 1 is left without
    an answer, its 3 names no question: errors at the question and the entry, never a guess."""
    quizzes, sink = run_import(PAGES / "numbered-twice.md")
    assert quizzes == []
    assert sorted((d.code, d.span.line, d.span.column) for d in sink.errors) == [("QB120", 5, 1), ("QB187", 23, 4)]


def test_a_question_answered_twice(tmp_path: Path) -> None:
    quiz, found, _ = imported("two-answers.md", tmp_path)
    assert found == [
        "two-answers.md:8:35: warning[QB716]: question 'Which metal is liquid at room temperature?' has two answers: 'A' at "
        "line 6 and 'B' here; the first was kept\n    hint: delete the answer that is wrong",
        "two-answers.md:12:9: warning[QB716]: question 'Gold is a metal.' has two answers: 'true' at line 11 and 'false' here; "
        "the first was kept\n    hint: delete the answer that is wrong",
    ]
    mercury, gold, lead = quiz.iter_questions()
    assert correct(mercury) == ["A"] and not mercury.feedback.general  # the second answer is not kept as feedback
    assert gold.type == "true_false" and gold.answer is True
    # The same answer twice is one answer, and no explanation.
    assert correct(lead) == ["A"] and not lead.feedback.general


def test_solutions_in_sentences(tmp_path: Path) -> None:
    quiz, found, _ = imported("solutions.md", tmp_path)
    assert found == []
    one, two, three = quiz.iter_questions()
    # "**1.** The answer is B because y.": B, and the sentence is the explanation.
    assert correct(one) == ["B"] and one.feedback.general == "The answer is B because y."
    assert correct(two) == ["A", "C"] and not two.feedback.general  # "The correct answer is A, C." says no more
    assert texts(three) == ["가", "나"] and correct(three) == ["B"]  # "정답은 ② 입니다."


def test_a_korean_page_with_its_key(tmp_path: Path) -> None:
    quiz, found, item = imported("korean-key.md", tmp_path)
    assert found == [
        "korean-key.md:17:4: warning[QB711]: question 'GIL이 무엇인지 설명하세요.' has no options and no answer: imported as an "
        "essay without a model answer",
        "korean-key.md:25:1: warning[QB711]: the <details> block '참고' at line 25 is shown open: a source has no collapsible blocks",
    ]
    assert quiz.title == "파이썬 기초 퀴즈" and quiz.language == "ko"  # from the front matter
    sort, keys, interpreted, gil, loop, immutable = quiz.iter_questions()
    assert correct(sort) == ["A"]  # 1번: A
    assert keys.type == "multiple_response" and correct(keys) == ["A", "C"]  # 2번: A 및 C
    assert interpreted.type == "true_false" and interpreted.answer is True  # 3-참
    # <summary>해설 보기</summary>: the explanation, not the question; no answer anywhere: an essay.
    assert gil.type == "essay" and gil.model_answer is None and gil.stem == "GIL이 무엇인지 설명하세요."
    assert gil.feedback.general == "GIL은 한 번에 하나의 스레드만 파이썬 바이트코드를 실행하게 하는 잠금입니다."
    # A <details> that hides no answer stays in the question, open; the key's second line is the explanation.
    assert loop.stem.endswith("**참고**\n\n파이썬에는 이런 키워드가 없습니다.")
    assert correct(loop) == ["A"] and loop.feedback.general == "while True로 시작하고 조건이 거짓이면 break합니다."
    # Options ① ② ③ ④ as Korean exams write them, and "정답: ③".
    assert texts(immutable) == ["list", "dict", "tuple", "set"] and correct(immutable) == ["C"]
    assert item.changed == {"essay": 1, "single_choice": 1}


def test_a_key_on_one_line_in_a_text_page(tmp_path: Path) -> None:
    quiz, found, _ = imported("one-line-key.txt", tmp_path)
    assert found == []
    ocean, egypt, everest = quiz.iter_questions()
    assert texts(ocean) == ["Atlantic", "Pacific", "Indian"] and correct(ocean) == ["B"]
    assert correct(egypt) == ["A"]
    assert everest.type == "true_false" and everest.answer is True  # 3-T
    assert "Answer key" not in everest.stem


def test_a_heading_per_question(tmp_path: Path) -> None:
    quiz, found, _ = imported("headings.md", tmp_path)
    assert found == []
    assert [s.title for s in quiz.sections] == ["Web basics"]  # "## Question 1" is a question, not a section
    html, status, lists, colour, method = quiz.iter_questions()
    # "## Question 1", its text in the next paragraph, task-list options, and an answer block that
    # names the option by its text and says why.
    assert html.stem == "What does HTML stand for?" and correct(html) == ["B"]
    assert html.feedback.general == 'HyperText Markup Language: "hypertext" is text with links.'
    # **A)** options, "> **Answer:** C" in a blockquote.
    assert texts(status) == ["200", "301", "404"] and correct(status) == ["C"]
    assert lists.stem == "Which tag makes a numbered list?" and correct(lists) == ["B"]  # "### Q3: …"
    # "### 4. …?" and a question line without a number before its options, keyed 4 and 5 at the end.
    assert colour.stem == "Which CSS property sets the text colour?" and correct(colour) == ["B"]
    assert method.stem == "Which HTTP method should not change anything on the server?" and correct(method) == ["A"]


def test_tables_of_questions_and_of_answers(tmp_path: Path) -> None:
    quiz, found, _ = imported("answer-table.md", tmp_path)
    assert found == []
    assert [s.title for s in quiz.sections] == ["Capitals", "Rivers"]
    france, japan, australia, canada = quiz.sections[0].questions
    # Question | A | B | C | Answer | Explanation: one question a row.
    assert france.stem == "What is the capital of France?" and texts(france) == ["Paris", "Lyon", "Nice"]
    assert correct(france) == ["A"] and france.feedback.general == "Paris has been the capital since 987."
    assert correct(japan) == ["B"] and not japan.feedback.general
    assert australia.type == "true_false" and australia.answer is False  # no options, "false"
    assert australia.feedback.general == "It is Canberra."
    assert correct(canada) == ["B"]  # the answer names the option by its text
    # A # | Answer table keys the numbered questions, not the table's rows above them.
    danube, nile = quiz.sections[1].questions
    assert correct(danube) == ["B"] and correct(nile) == ["A"]


# -- broken pages -------------------------------------------------------------------------------------


def test_a_broken_page(tmp_path: Path) -> None:
    quiz, found, item = imported("broken.md", tmp_path)
    assert found == [
        "broken.md:9:9: warning[QB713]: question 'Which planet is largest?' was skipped: its answer names E, which is not an "
        "option (the options are A–C)\n    hint: correct the answer's letter",
        # One letter of three is no option: the question is not imported as A, C alone.
        "broken.md:15:9: warning[QB713]: question 'Which planets have rings?' was skipped: its answer names F, which is not an "
        "option (the options are A–C)\n    hint: correct the answer's letter",
        "broken.md:22:1: warning[QB712]: an answer block: kept as raw HTML (it has no exact Markdown form); it may not show "
        "exactly as before\n    hint: check it in the preview (qti-builder preview); edit it into Markdown if you like",
        "broken.md:27:4: warning[QB713]: question 'What is the hottest planet?' was skipped: it has options but no answer that "
        "names one\n    hint: add 'Answer: B' after the options, or an answer key at the end ('1. B')",
        "broken.md:41:9: warning[QB716]: question 'Which planet spins on its side?': the options marked correct (A) and the "
        "answer 'B' disagree; the marked options were kept",
    ]
    closest, moons, side = quiz.iter_questions()
    # An unclosed <b> in the question; the answer block after "Answer: A" is its explanation.
    assert correct(closest) == ["A"] and "Mars is red." in closest.feedback.general
    # An HTML quiz whose <p> and <label>s never close: its text and options are still found.
    assert moons.stem == "Which planet has the most moons?" and texts(moons) == ["Saturn", "Mars"] and correct(moons) == ["A"]
    assert correct(side) == ["A"]
    assert item.skipped == {"multiple choice": 3}  # by type, each at its line above


@pytest.mark.parametrize("page", [
    "<details><summary>Answer</summary>B</details>\n\n1. Late?\nA) x\nB) y\nAnswer: B\n",
    "# T\n\n" + "<div>" * 300 + "deep" + "</div>" * 300 + "\n\n1. Deep?\nA) x\nB) y\nAnswer: A\n",
    "# T\n\n<details><summary>Answer" + "<b>" * 2000 + "\n\n1. Q?\nA) x\nB) y\nAnswer: A\n",
    "# T\n\n<!DOCTYPE x [<!ENTITY a \"aaaaaaaaaa\"><!ENTITY b \"&a;&a;&a;&a;&a;&a;&a;&a;\">]>\n<div class=\"quiz\"><p>&b;</p>"
    "<label><input type=radio name=x checked>&b;</label><label><input type=radio name=x>no</label></div>\n",
])
def test_hostile_or_odd_html_never_crashes(tmp_path: Path, page: str) -> None:
    path = tmp_path / "odd.md"
    path.write_text(page, encoding="utf-8")
    sink = DiagnosticSink()
    quizzes = import_path(path, "odd.md", sink)
    assert not sink.errors, messages(sink)
    for q in quizzes[0].quiz.iter_questions():
        assert "aaaaaaaaaa" not in q.stem  # entities declared in a page are never expanded
    builds(quizzes[0].quiz, {}, tmp_path)


def test_a_page_past_the_size_limit_is_refused(tmp_path: Path) -> None:
    # A page has the limit of every import input, --max-input-mb (a long page is a bank too).
    path = tmp_path / "huge.md"
    path.write_bytes(b"# Huge\n\n" + b"1. Q?\nA) x\nB) y\nAnswer: A\n\n" * 50_000)  # 1.3 MiB
    code, _, err = run("import", str(path), "--out", "imported", "--max-input-mb", "1", cwd=tmp_path)
    assert code == 1 and "error[QB700]: the file is 1.3 MiB, more than the 1 MiB an import may read" in err
    assert "--max-input-mb" in err and not (tmp_path / "imported").exists()


def test_numbers_past_999(tmp_path: Path) -> None:
    """A long page numbers its questions past 999, and its key too."""
    path = tmp_path / "long.md"
    path.write_text("# Long\n\n999. First?\nA) x\nB) y\n\n1000. Second?\nA) x\nB) y\n\n## Answers\n\n999. A\n1000. B\n",
                    encoding="utf-8")
    quizzes, sink = run_import(path)
    assert messages(sink) == []
    assert [correct(q) for q in quizzes[0].quiz.iter_questions()] == [["A"], ["B"]]


# -- any page ---------------------------------------------------------------------------------------

FRAGMENTS = [
    "# Title", "## Section", "## Answers", "## Question 2", "### Q3: Why?", "1. What is it?", "2) Which one?", "Q4 How?",
    "- A bullet question?", "A) one", "B) two", "C) three", "a. four", "(b) five", "A - six", "- [x] right", "- [ ] wrong",
    "① first", "② second", "Answer: B", "**Answer:** A, C", "정답: ③", "Explanation: because.", "Answer: E", "Answer: true",
    "Model answer: a text.", "정답 보기", "Show answer", "<details><summary>Answer</summary>", "<details><summary>Hint</summary>",
    "<details><summary>Note</summary>text</details>", "</details>", "<summary>Solution</summary>", "<div class=\"quiz\">",
    "<p>Question?</p>", "<label><input type=\"radio\" name=\"q\" checked> yes</label>", "<input type=\"checkbox\" data-correct>",
    "<input type=\"text\">", "</div>", "<?quiz?>", "question: Q?", "answer: x", "answer-correct: y", "content:", "<?/quiz?>",
    "quiz-start", "quiz-end", "```", "```python", "print(1)", "| Question | A | B | Answer |", "|---|---|---|---|",
    "| Q? | x | y | B |", "| # | Answer |", "| 1 | A |", "1. B", "2-C", "Q3: A", "1-B, 2-C", "??? success \"Answer\"",
    "    B) indented", "!!! note", "> **Answer:** B", "<b>unclosed", "&nbsp;&bogus;", "<!-- c -->", "---", "",
    "<p>Answer: 3</p>", "(Answer: 4)", "D) Paris Answer: B",
    # Exams pasted as text, and mkdocs-quiz 1.x.
    "① 가 ② 나 ③ 다", "④ 라", "가) x", "ㄱ. y", "i) one", "ii) two", "イ) x", "ロ) y", "1) first", "2. second", "<보기>",
    "[정답]", "정답 및 해설", "1.② 2.① 3.④", "정답: 1.② 2.①", "1. ② 해설: 이유.", "해설", "정답 - ②", "정답: O", "정답: 42",
    "Ⅱ. 단답형 (각 2점)", "[1~2] 다음 글을 읽고 답하시오.", "※ 다음 물음에 답하시오.", "3. 옳은 것은? (3점)", "問1 どれか。",
    "(가) 김소월 ･ ･ ㉠ 서시", "정답: (가)-㉠", "조선의 왕은 (    )이다.", "<quiz>", "</quiz>", "- [x] yes", "> why",
    "Intro.\n<quiz>\nWhich?\n- [x] yes\n> because\n- [ ] no\n\nMore.\n</quiz>", "Intro.\n<quiz>\n2 + 2 = [[4]]\n</quiz>",
]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40), st.sampled_from(["page.md", "page.txt"]))
def test_any_page_imports_into_a_source_that_reads_back(lines: list[str], name: str) -> None:
    """Whatever a page holds: no crash, no answer label in what students read, and a source the
    reader gives back as the same quiz (the importer never writes a source the reader refuses)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / name
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        sink = DiagnosticSink()
        quizzes = import_path(path, name, sink)
    text = "\n".join(lines) + "\n"
    paper = page_form(text, name.endswith(".md")) is None
    if not quizzes:
        # Nothing to import, said so, or the errors of the questions whose answers cannot be read
        # and of lines no question can hold (a key's title after a question, QB722; text after
        # the closing mark, QB723); for an exam paper, the dialect reader's errors, each at a line
        # of the paper.
        codes = [d.code for d in sink.errors]
        assert codes == ["QB704"] or (codes and set(codes) <= {"QB705", "QB706", "QB722", "QB723"}) or (
            paper and codes and all(d.span and 1 <= d.span.line <= text.count("\n") + 1 for d in sink.errors)), codes
        return
    quiz = quizzes[0].quiz
    assert_nothing_revealed(quiz)
    if paper:
        # The paper itself is written (under its title and language): build reads it into the same quiz.
        assert quizzes[0].source_text is not None
        assert read_back(quizzes[0].source_text, ".md").model_copy(update={"id": quiz.id}) == quiz
        return
    written = write_source(quiz)
    assert read_back(written.text, written.suffix) == quiz


def test_an_answer_before_any_question(tmp_path: Path) -> None:
    """A labelled line before the first question answers nothing: never the title or the
    introduction. A page without a web page's form is read by the exam reader: each is an error."""
    path = tmp_path / "early.md"
    path.write_text("Model answer: a text.\n\n# Quiz\n\nCorrect answer: B\n\n1. Q?\nA) x\nB) y\nAnswer: B\n", encoding="utf-8")
    quizzes, sink = run_import(path)
    assert quizzes == [] and [(d.code, d.span.line) for d in sink.errors] == [("QB145", 1), ("QB146", 3), ("QB173", 5)]
    # With a toggle line (a web page's form), the quiz page reader skips them, and says so.
    path.write_text("Model answer: a text.\n\n# Quiz\n\nCorrect answer: B\n\n1. Q?\nA) x\nB) y\nShow answer\nAnswer: B\n",
                    encoding="utf-8")
    quizzes, sink = run_import(path)
    assert messages(sink) == [
        "early.md:1:1: warning[QB711]: line 1 ('Model answer: a text.') answers no question; skipped\n"
        "    hint: put it after the question it answers",
        "early.md:5:1: warning[QB711]: line 5 ('Correct answer: B') answers no question; skipped\n"
        "    hint: put it after the question it answers",
    ]
    quiz = quizzes[0].quiz
    assert quiz.title == "Quiz" and not quiz.description
    assert [correct(q) for q in quiz.iter_questions()] == [["B"]]


def test_the_exam_rule_a_section_prints_is_its_multiple_response_questions_scoring(tmp_path: Path) -> None:
    """全部选对得6分，选对但不全得3分，有选错的得0分 in a section's heading: its multiple-response
    questions are worth 6 points, 3 for right but incomplete and 0 for any wrong option (issue 30);
    the single-choice question of another section keeps its own rule (2 points, no partial credit)."""
    quiz, _, _ = imported("exam-rule.zh.md", tmp_path)
    single, metals, gases, liquids = quiz.iter_questions()
    # The rule on a line of its own under the heading counts as well.
    assert (liquids.points, liquids.scoring, liquids.incomplete_points) == (4, "exam", 2)
    assert single.type == "single_choice" and single.points == 2  # 每小题2分
    for q in (metals, gases):
        assert (q.type, q.points, q.scoring, q.incomplete_points) == ("multiple_response", 6, "exam", 3)
    right = {c.id for c in metals.choices if c.correct}
    assert right == {"A", "C"}
    assert (metals.score_of(right), metals.score_of({"A"}), metals.score_of({"A", "B"}), metals.score_of(set())) == (1, 0.5, 0, 0)


def test_a_site_page_options_in_tables_images_by_site_paths_and_a_scoring_list(tmp_path: Path) -> None:
    """What quiz pages read before and read again (issue 32): options set in a table (a letter
    column, its header an option too or not), images named by the site's paths (/assets/…: the
    file at that place below the page's folder is extracted; one that is not there is a named
    placeholder, reported), and a "Scoring" list after the questions giving each its points."""
    page = PAGES / "site/organelles.md"
    quizzes, sink = run_import(page)
    found = messages(sink)
    assert not sink.errors, found
    assert "organelles.md:15:4: warning[QB714]: media file '/static/img/nucleus.png' is not beside the page; the placeholder " \
           "media/missing-nucleus.png.svg shows where it was" in "\n".join(found)
    (item,) = quizzes
    picture, nucleus, atp = item.quiz.iter_questions()
    assert picture.stem == "What does the picture show? ![A plant cell](media/cell.png)"
    assert [(c.text, c.correct) for c in picture.choices] == [("A plant cell", True), ("An animal cell", False), ("A bacterium", False)]
    assert [(c.text, c.correct) for c in nucleus.choices] == [("Nucleus", True), ("Vacuole", False)]
    assert 'src="media/missing-nucleus.png.svg"' in nucleus.stem
    assert [q.points for q in (picture, nucleus, atp)] == [2, 1, 3]
    assert item.media["media/cell.png"] == (PAGES / "site/assets/images/cell.png").read_bytes()
    assert b"missing: nucleus.png" in item.media["media/missing-nucleus.png.svg"]
    builds(item.quiz, item.media, tmp_path)


def test_a_site_path_never_reads_outside_the_page_folder(tmp_path: Path) -> None:
    """A reference that climbs out of the page's folder (../secret.png) or a site path whose file
    lies only above it is not read: a placeholder stands in."""
    (tmp_path / "secret.png").write_bytes(b"\x89PNG-outside-the-page-folder")
    folder = tmp_path / "pages"
    folder.mkdir()
    page = folder / "quiz.md"
    page.write_text("# Quiz\n\n1. Which? ![x](../secret.png) ![y](/secret.png)\n   A) a\n   B) b\n\n   Answer: A\n", encoding="utf-8")
    quizzes, sink = run_import(page)
    assert set(quizzes[0].media) == {"media/missing-secret.png.svg"}
    assert b"outside-the-page-folder" not in b"".join(quizzes[0].media.values())
    assert len([d for d in sink.items if d.code == "QB714"]) == 2


def test_a_portuguese_page_with_a_pairing_exercise(tmp_path: Path) -> None:
    """A Portuguese page: 'Questão 1' alone on its line, an answer naming the option as 'letra B',
    and a pairing exercise (numbered items, then '( )' slots each to be given an item's number,
    the answer the numbers in the slots' order): a matching question whose prompts are the slots,
    an item no slot takes a distractor. It was an essay, or a multiple response with every item
    right, or nothing at all."""
    quizzes, sink = run_import(PAGES / "pairing.pt.md")
    assert not sink.errors and not [d for d in sink.items if d.code in ("QB710", "QB713")], messages(sink)
    (item,) = quizzes
    assert item.quiz.language == "pt"
    choice, pairing = item.quiz.iter_questions()
    assert choice.stem == "Qual organela produz ATP?" and [c.correct for c in choice.choices] == [False, True, False]
    assert pairing.type == "matching" and pairing.stem == "Relacione as organelas às suas funções."
    assert [(p.prompt, p.answer) for p in pairing.pairs] == [
        ("Síntese de proteínas", "Ribossomo"), ("Respiração celular", "Mitocôndria"), ("Armazena o DNA", "Núcleo")]
    assert pairing.distractors == ["Lisossomo"]
    builds(item.quiz, item.media, tmp_path)


def test_a_pairing_exercise_whose_answer_does_not_fit_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "pairs.md"
    page.write_text("# Pares\n\n1. Relacione as colunas.\n\n(1) Célula\n(2) Tecido\n\n( ) Conjunto de células\n"
                    "( ) Unidade da vida\n\nResposta: 2\n", encoding="utf-8")
    quizzes, sink = run_import(page)
    (error,) = [d.render() for d in sink.errors]
    assert error.startswith("pairs.md:11:") and "error[QB706]: question 'Relacione as colunas.' (line 3): a pairing exercise " \
        "of 2 slots and items 1, 2 needs one item's number per slot, in order; the answer '2' does not give that" in error
    assert not quizzes


@pytest.mark.parametrize("text, line, code", [
    ("T\n\n1. 地球是圆的。\nShow answer\n答案：√\n（每题4分，共24分。）\n\n2. 水是液体。\nShow answer\n答案：√\n", 6, "QB722"),
    ("T\n\n1. 설명하시오.\n정답 보기\n모범답안: 광합성은 빛 에너지를 쓴다.\n\n- 끝 -\n\n수고하셨습니다 여러분\n", 9, "QB723"),
])
def test_a_page_keeps_a_structure_line_out_of_an_answer(tmp_path: Path, text: str, line: int, code: str) -> None:
    """A scraped page (its toggle lines are a web page's form) is the quiz page reader's: a points
    rule after an answer, or text after the closing mark, is an error at its line there too, never
    folded into the answer (a pasted paper without toggles gets the exam reader's QB154, QB155)."""
    (tmp_path / "page.txt").write_text(text, encoding="utf-8")
    quizzes, sink = run_import(tmp_path / "page.txt")
    assert [(d.code, d.span.line) for d in sink.errors] == [(code, line)]  # the CLI then writes nothing


def test_a_first_question_without_a_number_is_no_title(tmp_path: Path) -> None:
    """Issue 32: a page (an Aiken-like bank read as a page) whose first line is a question with its
    options under it: that line was taken as the page's title, its options written into the
    description that students read, and its answer dropped ("answers no question"). It is the
    first question; the title comes from the file's name."""
    page = tmp_path / "bank.txt"
    page.write_text("Which gas do plants take in?\nA) Oxygen\nB) Carbon dioxide\nAnswer: B\n\n"
                    "Which organ pumps blood?\nA) Lungs\nB) Heart\nAnswer: B\n", encoding="utf-8")
    quizzes, sink = run_import(page, "quizpage")
    assert not sink.errors and not [m for m in messages(sink) if "answers no question" in m], messages(sink)
    (item,) = quizzes
    assert item.quiz.title == "bank" and not item.quiz.description
    gas, organ = item.quiz.iter_questions()
    assert gas.stem == "Which gas do plants take in?" and correct(gas) == ["B"] and texts(gas) == ["Oxygen", "Carbon dioxide"]
    assert organ.stem == "Which organ pumps blood?" and correct(organ) == ["B"]
    builds(item.quiz, item.media, tmp_path)


def test_a_heading_per_question_then_a_form_of_inputs(tmp_path: Path) -> None:
    """Static-site quiz plug-ins write '## Question N', the question's text in a paragraph, then a
    form of inputs: one question, its text from the paragraph and its options from the form. It
    used to be read as two, the text without options (an error) and the form without text
    ('(no text)' skipped)."""
    page = PAGES / "heading-forms.md"
    code, out, err = run("import", str(page), "--out", "imported", cwd=tmp_path)
    assert code == 4, err  # written, without the questions that cannot be imported
    # What cannot be imported is named by its text, or by its heading where it has no text.
    assert [line for line in err.splitlines() if re.match(r"\S+:\d+:\d+: ", line)] == [
        f"{page}:34:1: warning[QB713]: question 'Which statement leaves a loop early?' was skipped: no option is marked correct",
        f"{page}:48:1: warning[QB710]: question 'What does the built-in `print` write to?': an <input type=\"text\"> cannot be "
        "imported (an HTML page does not say which answers it accepts); skipped",
        f"{page}:54:1: warning[QB710]: question 'Question 6': an <input type=\"number\"> cannot be imported (an HTML page does not "
        "say which answers it accepts); skipped",
        f"{page}:57:1: warning[QB713]: question 'Question 7' was skipped: it has no text a student would see (what it holds "
        "the build's sanitiser removes)",
        f"{page}:59:1: warning[QB711]: the HTML quiz at line 59 has no radio buttons or checkboxes: no question read",
    ]
    assert "(no text)" not in err and "error" not in err
    written = (tmp_path / "imported/heading-forms.md").read_text(encoding="utf-8")
    quiz = read_back(written, ".md")
    assert quiz is not None
    function, immutable, length, repeat, kind, floor = quiz.iter_questions()
    assert function.stem == "Which keyword defines a function in Python?" and function.type == "single_choice"
    assert texts(function) == ["def", "func", "lambda"] and correct(function) == ["A"]
    assert immutable.stem == "Which of these types are immutable?" and immutable.type == "multiple_response"
    assert texts(immutable) == ["tuple", "list", "str"] and correct(immutable) == ["A", "C"]
    # "## Question 3" alone: the form's own text is the question's.
    assert length.stem == 'What does `len("abc")` return?' and texts(length) == ["2", "3"] and correct(length) == ["B"]
    # A heading, a paragraph and the form's own text: one question, both its texts.
    assert repeat.stem == "Read `x = [1, 2] * 2`.\n\nHow long is `x`?" and texts(repeat) == ["4", "2"] and correct(repeat) == ["A"]
    # The answer after the form, in an answer block or on a line: the question's, as under options.
    assert kind.stem == "Which function gives an object's type?" and texts(kind) == ["id", "type"] and correct(kind) == ["B"]
    assert floor.stem == "Which operator is floor division?" and texts(floor) == ["/", "//"] and correct(floor) == ["B"]


@pytest.mark.parametrize(("lang", "removed"), [
    ("en", "the build's sanitiser removes onclick= on <p>; <script>"),
    ("ko", "빌드의 새니타이저가 <p>의 onclick=; <script>을(를) 지웁니다"),
    ("ja", "ビルドのサニタイザーが <p> の onclick=; <script> を取り除きます"),
    ("zh", "构建的清理程序会删除 <p> 上的 onclick=; <script>"),
])
def test_what_the_sanitiser_removes_is_said_in_the_teachers_language(tmp_path: Path, lang: str, removed: str) -> None:
    """QB712 lists what the build's sanitiser removes: an attribute 'on' its element is said in
    the message's language (it used to keep the English 'on' in Korean, Japanese and Chinese)."""
    (tmp_path / "quiz.md").write_text(
        "# 퀴즈\n\n<div class=\"quiz\">\n<p onclick=\"go()\">다음 중 함수를 정의하는 키워드는? <script>x()</script></p>\n"
        "<label><input type=\"radio\" name=\"q1\" checked> def</label>\n<label><input type=\"radio\" name=\"q1\"> func</label>\n"
        "</div>\n", encoding="utf-8")
    code, _, err = run("import", "quiz.md", "--out", "imported", "--lang", lang, cwd=tmp_path)
    assert code == 0, err
    (line,) = [line for line in err.splitlines() if "QB712" in line]
    assert line.startswith("quiz.md:5:1: warning[QB712]: ") and line.endswith(removed), line
