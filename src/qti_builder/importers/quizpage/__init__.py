"""Quiz pages: a quiz as people put it on a web page or in a document, as Markdown or scraped or
saved as text.

Questions (bulleted or numbered) followed by options (``A)``, ``a.``, ``(a)``, ``A -``, task-list
``- [ ]``/``- [x]``), then a revealed answer and an explanation, in English or Korean, like
the docs page the first quiz was scraped from:

    - Ray Train의 `ScalingConfig`가 하는 역할은 무엇인가요?
    - A) 워커를 몇 개 실행할지 ...
    정답 보기
    정답: A) 워커를 몇 개 실행할지 ...
    설명: ...

An exam paper typed in HWP or Word and pasted as text is not a quiz page: a text without any of a
web page's own forms (:func:`.paper.page_form`: HTML, ``<details>``, mkdocs-quiz, tables, admonitions,
toggle lines, task-list, dashed or glued options, bulleted questions, ``## Question 3`` headings, bold
question numbers, site paths, pairing slots) is read by the one exam reader, the Markdown dialect's
reader that ``build`` runs (:mod:`.paper`), and written as it is under its title and language, so that
``build`` and ``import`` read a paper alike and build the same bytes. This package reads what only
web pages hold, and the repairs scraping needs.

What pages hold: answers hidden in ``<details><summary>Answer</summary>`` blocks (the
block's content is the answer and the explanation, never the question), answers in code fences,
tables of questions and answers, an answer key at the end in the forms exams print it
(``[정답 및 해설]`` then ``1.② 2.① 3.④``, ``정답: 1.② 2.①``, ``1. B`` lines, a table), HTML quizzes
(``<div class="quiz">`` with radio buttons or checkboxes, the correct ones ``checked``,
``data-correct`` or ``class="correct"``) and mkdocs-quiz's ``<quiz>`` blocks (and the ``<?quiz?>``
of its first releases). markdown-it finds the blocks (:mod:`.blocks`), lxml.html reads the HTML
(:mod:`.html`), :mod:`.page` reads them into questions (:mod:`.syntax`: the page's own forms, and
the tables and reader functions it uses), an answer key at the end is applied by :mod:`.keys`, and
:mod:`.emit` turns each question into the model's data (or says why it is skipped, or why it is an
error).

The reader forgives what scraping does to a page: options glued onto one line
(``...했다 - C) CPU``, ``무엇인가요?- A) ...``), a question broken over lines where a code span
was, toggle lines ("정답 보기", "Show answer") and Markdown emphasis around labels
(``**Answer:** B``). The first line is the title; short lines between questions that introduce
more questions are section headings. What scraping lost cannot be recovered: code formatting
(``ScalingConfig`` comes back as plain text), and an option's text where the scrape ran words
together, unless the answer line repeats that option intact, in which case the answer's copy is
used.

Where a page says one thing two ways (an answer key that disagrees with the answer at the
question, options marked correct that are not the answer line's), the import says what it did
(QB716); a question whose answer cannot be told is skipped (QB713). An answer key that does not fit
the questions read (QB705) and an answer that contradicts its question or cannot tell its type
(QB706) are errors: they mean the page was not read as printed.
"""

from __future__ import annotations

from pathlib import Path

from ...diagnostics import DiagnosticSink
from ..base import ImportedQuiz
from ..safety import read_input
from .page import Page
from .paper import import_paper, page_form



def sniff(path: Path, head: bytes) -> bool:
    return True  # the fallback for text: every other format is recognised first


def import_quizpage(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    raw = read_input(path, display, sink)
    if raw is None:
        return []
    text = raw.decode("utf-8", "replace").removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    markdown = path.suffix.lower() in (".md", ".markdown")
    if page_form(text, markdown) is None:
        return import_paper(path, display, sink, raw)
    return Page(path, display, sink, markdown).read(text)
