"""Where a quiz page ends and an exam paper begins, and an exam paper imported by the one reader.

A text without any of a web page's own forms (:func:`page_form`) is an exam paper: it is read by
the Markdown dialect's reader, the code ``build`` runs (readers/markdown.read_paper), with its
lines numbered as pasted, so that every error it finds is reported at the paper's own line and
column. The source written is the paper itself: its title and language as front matter, then the
lines after its title unchanged. ``build`` of that source therefore reads the same lines with the
same reader into the same model: the two routes cannot disagree, and import invents nothing
(no ids, no escapes, no re-spelled labels).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml

from ... import vocabulary as V
from ...checks import check_content
from ...diagnostics import DiagnosticSink, SourceSpan
from ...ignores import check_question_ignores
from ...model import Quiz, QuizSettings
from ...totals import check_stated_total
from ...readers import SourceMap
from ...readers.base import decode_source, suggest
from ...readers.markdown import read_markdown, read_paper
from ...readers.markdown import syntax as S
from ..base import LOST, ImportedQuiz, sanitise_id, script_language
from ..language import LATIN_LANGUAGES, text_language
from . import blocks as B
from .tables import page_table
from .syntax import ADMONITION, DASH_OPTION, GLUED, QUESTION_HEADING, TASK, TOGGLE

#: A list item that is not an option (``- Ray Train은 무엇인가요?``): a question written as a bullet.
_BULLET = re.compile(r"^\s*[-*+•]\s+(\S.*)$")
#: A question or key entry numbered in bold, as Markdown pages write them (``**1.** …``).
_BOLD_NUMBER = re.compile(r"^[*_]{2,3}\d{1,4}[.)]")
#: An image by the path of the site the page was on (``![x](/assets/cell.png)``).
_SITE_PATH = re.compile(r"!\[[^\]]*\]\(/(?!/)")
#: A slot of a pairing exercise, to be given an item's number (``( ) Unidade da vida``).
_SLOT = re.compile(r"^\(\s*\)\s+\S")
#: The toggle that is one word, ``Answer`` (with a page's arrow, if any).
_BARE_ANSWER = re.compile(r"^[▶▼►▸⯈\s]*answer\s*[▶▼►▸]?$", re.I)
#: A Markdown heading: a page's title (level 1, on its first line) or a section.
_HEADING = re.compile(r"^#{1,6}\s+(.*?)\s*#*\s*$")


def page_form(text: str, markdown: bool) -> str | None:
    """What makes ``text`` a web page rather than an exam paper (None for an exam paper): HTML,
    ``<details>`` answers, mkdocs-quiz, tables of questions, answers revealed by admonitions or
    toggle lines ("정답 보기", "Show answer"), task-list or dashed options, options glued onto the
    question by a scrape, bulleted questions, ``## Question 3`` headings, question numbers and labels
    in bold (``**01. …**``, ``**답**:``),
    images by the site's path, a pairing exercise's ``( )`` slots, front matter without a title
    (a page's, not a source's), a first question with options that has no number. These are read by the quiz
    page reader (:mod:`.page`); every other text is a paper, read by the Markdown dialect's reader."""
    titled, _ = B.front_matter(text)
    if B.FRONT_MATTER.match(text) and titled is None:
        return "front matter without a title (a page's, not a source's)"
    _, events = B.events(text, markdown)
    lines = text.split("\n")
    exam_headings = _exam_headings(lines, [e for e in events if isinstance(e, B.Heading) and QUESTION_HEADING.match(e.text)])
    for event in events:
        if isinstance(event, B.Html) and all(not line.strip() or S.invisible_html(line) for line in event.html.split("\n")):
            continue  # a comment or a print page break shows nothing: no web page's HTML
        if isinstance(event, (B.Html, B.HtmlQuiz, B.QuizTag, B.MkQuiz)):
            return f"HTML at line {event.line}"
        if isinstance(event, B.Table) and page_table(event):
            # A table of fees in a question's passage is that question's text: only a page's
            # questions, answers or options set in a table make a page.
            return f"a table at line {event.line}"
        if isinstance(event, B.Heading) and QUESTION_HEADING.match(event.text) and not exam_headings:
            return f"a question heading at line {event.line}"
    unnumbered = _first_unnumbered(lines)
    if unnumbered is not None:
        # A paper numbers its questions; a bank of questions without numbers, each a line followed
        # by its options (an Aiken-like file), is read as a page reads it.
        return f"a question without a number at line {unnumbered}"
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if TOGGLE.match(line) and _BARE_ANSWER.match(line):
            # 'Answer' alone is a toggle only when the revealed answer follows it ('Answer: B');
            # else it is a paper's label on its own line, the reader's.
            revealed = S.read_label(next((n.strip() for n in lines[number:] if n.strip()), ""))
            if revealed is not None and S.QUESTION_LABELS.get(revealed.name.lower()) == "answer":
                return f"a toggle line at line {number}"
            continue
        if TOGGLE.match(line) or ADMONITION.match(raw) or TASK.match(line) or DASH_OPTION.match(line) or GLUED.search(line):
            return f"a page's answer or option form at line {number}"
        if _BOLD_NUMBER.match(line):
            return f"a question number in bold at line {number}"
        marked = S.MARKED_LABEL.match(line)
        if marked and marked.group(1).strip().lower() in S.QUESTION_LABELS:
            return f"a label in bold at line {number}"
        if _SITE_PATH.search(line):
            return f"an image by its site's path at line {number}"
        if _SLOT.match(line) and any(_SLOT.match(other.strip()) for other in lines[number:number + 3]):
            return f"a pairing exercise's slots at line {number}"
        bullet = _BULLET.match(raw)
        if bullet and not S.option_marks(bullet.group(1)) and not S.option_marks(line):
            after = next((n.strip() for n in lines[number:] if n.strip()), "")
            if S.option_marks(after) or S.OPTION.match(after):
                return f"a bulleted question at line {number}"
    return None


def _exam_headings(lines: list[str], headings: list[B.Heading]) -> bool:
    """Are a paper's question headings (``## Q3 (6)``) the exam reader's: each a question it reads
    (its text, then its options or its answer), and some with their options as a Markdown list
    ``1.`` … (or statements marked ○/×), which the page reader would read as questions of their
    own? Headings the page reader reads as well (``## Question 1`` over ``- A) …``) stay a page's."""
    readings = [S.heading_reading(lines, h.line - 1) for h in headings]
    return bool(readings) and all(r.reading != "section" for r in readings) \
        and any(r.listed or r.reading in ("marked", "ambiguous") for r in readings)


def _first_unnumbered(lines: list[str]) -> int | None:
    """The line of the first question with options, when no numbered question comes before it
    (``What is …?`` then ``A. …`` and ``B. …``): a bank's question, not a paper's."""
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line:
            continue
        if S.question_start(line):
            return None
        if not _marks(line) and _options_start(lines, number):
            return number
    return None


def _marks(line: str) -> list[tuple[int, int]]:
    """The ordinals of the option markers of a line and where they stand (``A.`` and ``A)`` too)."""
    found = [(m.ordinal, m.start) for m in S.option_marks(line.strip())]
    letter = S.OPTION.match(line.strip()) if not found else None
    return found or ([("abcdefgh".find(letter.group(1).lower()) + 1, 0)] if letter else [])


def _options_start(lines: list[str], index: int) -> bool:
    """Do options start at ``lines[index]``: a first option at the line's start, then a second
    (on that line, or starting the next)?"""
    first = _marks(lines[index]) if index < len(lines) else []
    if not first or first[0] != (1, 0):
        return False
    second = _marks(lines[index + 1]) if index + 1 < len(lines) else []
    return len(first) > 1 or (bool(second) and second[0] == (2, 0))


def labels_language(lines: list[str]) -> str | None:
    """The language of a page in Latin letters, as its labels say it (``Respuesta:``, ``Antwort:``,
    ``Réponse :``): the language most of its labelled lines are in, when that is not English."""
    counts: dict[str, int] = {}
    for line in lines:
        label = S.read_label(line.strip())
        lang = V.label_language(label.name) if label is not None and label.spaced else None
        if lang is not None:
            code = next(c for c, known in V.LANGUAGES.items() if known is lang)
            counts[code] = counts.get(code, 0) + 1
    best = max(counts, key=lambda c: counts[c], default=None)
    return best if best not in (None, "en", "ko") and counts[best] > counts.get("en", 0) else None


def paper_title(lines: list[str]) -> tuple[str, int, int] | None:
    """The paper's title, its line and column: its first line that is not blank, unless that line
    is already the paper's (a paper pasted without a title). A ``# Title`` heading is a title."""
    number = next((n for n, line in enumerate(lines, 1) if line.strip()), None)
    if number is None:
        return None
    raw = lines[number - 1]
    label = S.read_label(raw.strip())
    shaped = S.structure(raw.strip()) if not raw.lstrip().startswith("# ") else None
    if not any(ch.isalnum() for ch in raw) or S.question_start(raw.strip()) or shaped or (label is not None and label.spaced and label.name.lower() in S.QUESTION_LABELS) \
            or S.heading_reading(lines, number - 1).reading != "section":
        # A rule (``-----``), a question (``# 1. …`` with its options under it too), a section
        # heading, instructions, a labelled line (``Answer: B``): the reader's, not a title (the
        # file's name is the title then).
        return None
    heading = _HEADING.match(raw.strip())
    title = heading.group(1) if heading and raw.lstrip().startswith("# ") else raw.strip()
    return title, number, raw.find(title) + 1


def paper_language(text: str, lines: list[str], short: list[str] | None = None) -> str:
    """The paper's language, as its prose says it (importers/language.py: scripts, then common
    words); for a paper in Latin letters labelled in a language other than English (``Antwort:``),
    its labels' (the reader reads the labels of the quiz's language: they must agree). Where the
    evidence is weak (a tiny text), the script of ``short`` (the texts to look at then; default
    the paper), then its labels'."""
    found = text_language(text)
    if found is not None:
        return (labels_language(lines) or found) if found in LATIN_LANGUAGES else found
    language = script_language(short if short is not None else [text])
    return (labels_language(lines) or language) if language == "en" else language


def paper_source(title: str, language: str, body: list[str]) -> str:
    """The source of a paper: its title and language as front matter, then its body unchanged."""
    plain = f"title: {title}"
    try:
        readable = yaml.safe_load(plain) == {"title": title}
    except yaml.YAMLError:
        readable = False
    front = plain if readable else f"title: {json.dumps(title, ensure_ascii=False)}"
    return "\n".join(["---", front, f"language: {language}", "---", *body])


def import_paper(path: Path, display: str, sink: DiagnosticSink, raw: bytes) -> list[ImportedQuiz]:
    """A pasted exam paper, read by the dialect's reader (its errors and warnings at the paper's
    lines), and the source that gives ``build`` the same model. Its bytes are decoded as build
    decodes a source (UTF-8, NFC; a character XML forbids is an error at its place, QB102)."""
    errors_before = len(sink.errors)  # the decoding's errors are the reading's, as in build
    text = decode_source(raw, display, sink)
    if text is None:
        return []
    stem = sanitise_id(path.stem) or "quiz"
    if B.FRONT_MATTER.match(text):
        # Already a source (what import wrote, say: front matter with a title): read as build
        # reads it, and written as it is, less the keys of another tool's front matter.
        read_text, written = _without_foreign_keys(text, display, sink)
        return _as_built(read_markdown(read_text, stem, display, sink, errors_before), path, display, sink, written)
    lines = text.split("\n")
    title = paper_title(lines)
    metadata = _metadata_after_title(lines, title[1] if title else 0, display, sink)
    if metadata:
        # Read with the block's lines blank (every line keeps its number), written without them.
        text = "\n".join("" if i in metadata else line for i, line in enumerate(lines))
        lines = text.split("\n")
    language = paper_language(text, lines)
    read = read_paper(text, title, language, stem, display, sink, errors_before)
    body = [line for i, line in enumerate(lines) if i not in metadata][title[1]:] if title else lines
    return _as_built(read, path, display, sink, paper_source(title[0] if title else stem, language, body))


def _metadata_after_title(lines: list[str], after: int, display: str, sink: DiagnosticSink) -> set[int]:
    """Another tool's metadata between ``---`` lines right under the paper's title (``examId:``,
    ``subject:``, ``duration:``), which the reader would show students as the quiz's description:
    each key is said (QB711) and left out. The indexes of the block's lines (none without one)."""
    start = next((i for i in range(after, len(lines)) if lines[i].strip()), None)
    if start is None or lines[start].strip() != "---":
        return set()
    end = next((i for i in range(start + 1, min(len(lines), start + 60)) if lines[i].strip() == "---"), None)
    if end is None or end == start + 1:
        return set()
    try:
        data = yaml.safe_load("\n".join(lines[start + 1:end]))
    except yaml.YAMLError:
        return set()
    if not isinstance(data, dict) or not all(isinstance(k, str) for k in data):
        return set()
    for i in range(start + 1, end):
        key = re.match(r"^([^\s:#][^:]*):", lines[i])
        if key:
            name = key.group(1)
            sink.warning(LOST, f"front-matter key '{name}' under the paper's title is another tool's metadata, no part "
                               "of a quiz: left out of the source", SourceSpan(display, i + 1, 1),
                         hint="the paper's title is its first line; a quiz's settings go in the front matter the import writes")
    return set(range(start, end + 1))


def _without_foreign_keys(text: str, display: str, sink: DiagnosticSink) -> tuple[str, str]:
    """A Markdown file's front matter as another tool writes it (pandoc's ``author``, ``date``,
    ``header-includes``; Jekyll's and Hugo's ``layout``, ``tags``): each top-level key that is no
    quiz's, no quiz setting and no misspelling of one is said (QB711) and left out. The text to
    read (each such key's lines blank, so that every line keeps its number) and the source to
    write (without them). A key close to a quiz's (``titel``) or a setting written flat
    (``time_limit``) stays for the reader to report: the author meant the quiz's."""
    front = B.FRONT_MATTER.match(text)
    if front is None:
        return text, text
    try:
        node = yaml.compose(front.group(1), Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return text, text  # the reader reports it, at its place
    if not isinstance(node, yaml.MappingNode):
        return text, text
    settings = list(QuizSettings.model_fields)
    dropped: set[int] = set()
    for key, value in node.value:
        name = key.value if isinstance(key, yaml.ScalarNode) else None
        if not isinstance(name, str) or name in S.FRONT_MATTER_KEYS or name in settings \
                or suggest(name, list(S.FRONT_MATTER_KEYS)) or suggest(name, settings):
            continue
        first = key.start_mark.line + 1  # lines of the front matter, from the line after '---'
        last = value.end_mark.line + (1 if value.end_mark.column else 0)
        dropped.update(range(first, max(last, first) + 1))
        sink.warning(LOST, f"front-matter key '{name}' is no part of a quiz (another tool's, such as pandoc's or "
                           "Jekyll's): left out of the source", SourceSpan(display, first + 1, key.start_mark.column + 1),
                     hint="a quiz's front matter takes: " + ", ".join(S.FRONT_MATTER_KEYS))
    if not dropped:
        return text, text
    lines = text.split("\n")
    read = "\n".join("" if i in dropped else line for i, line in enumerate(lines))
    written = "\n".join(line for i, line in enumerate(lines) if i not in dropped)
    return read, written


def _as_built(read: tuple[Quiz, SourceMap] | None, path: Path, display: str, sink: DiagnosticSink,
              source_text: str) -> list[ImportedQuiz]:
    """The checks ``build`` runs on what it read (the content and its media, the paper's stated
    total, the accepted warnings), at the paper's lines: what build would refuse, import refuses."""
    if read is None:
        return []
    quiz, source = read
    media = check_content(quiz, source, path.parent, sink)
    if not source.partial:
        check_stated_total(quiz, source, sink)
    check_question_ignores(quiz, source, sink)
    if source.partial:
        return []  # questions were left out for the errors reported: no quiz, as build writes none
    # Each image or sound beside the paper, written beside the source under the reference the paper gives it.
    return [ImportedQuiz(quiz, {f.ref: f.data for f in media.files}, origin=display, source_text=source_text)]
