"""A quiz page's block structure, from markdown-it: which lines are paragraphs (read line by line
for questions, options and labels), headings, code fences, tables and HTML blocks.

markdown-it decides the structure, so a fence, a table or an HTML block is recognised exactly as
the page's own renderer would recognise it. Two things it cannot see are found first, on the raw
text: YAML front matter, and mkdocs-quiz's ``<quiz> … </quiz>`` blocks (and the ``<?quiz?> …
<?/quiz?>`` of its releases before 1.0), which the plugin finds with a regular expression over
the page before Markdown runs (and which CommonMark would end at their first blank line or line). HTML quiz containers (``<div class="quiz">``, ``<form>``)
are taken whole, to their closing tag, whatever blank lines split them into several blocks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from markdown_it import MarkdownIt
from markdown_it.token import Token


@dataclass
class Lines:
    """Lines of paragraphs (with their list markers, without blockquote markers), by number."""

    lines: list[tuple[int, str]]


@dataclass
class Heading:
    line: int
    text: str


@dataclass
class Fence:
    line: int
    #: The block as written (fence lines and all), to keep in the text it belongs to.
    markdown: str
    #: What it holds.
    content: str
    #: Indented code, not a fence (or an admonition's content after a blank line).
    indented: bool = False
    #: False for a fence that is never closed: CommonMark makes the rest of the page its code.
    closed: bool = True


@dataclass
class Table:
    line: int
    markdown: str
    header: list[str]
    rows: list[tuple[int, list[str]]] = field(default_factory=list)


@dataclass
class Html:
    line: int
    html: str


@dataclass
class HtmlQuiz:
    """A ``<div class="quiz">`` or ``<form>`` with its inputs, to its closing tag."""

    line: int
    html: str


@dataclass
class MkQuiz:
    """An mkdocs-quiz block: the lines between ``<?quiz?>`` and ``<?/quiz?>``, by number."""

    line: int
    lines: list[tuple[int, str]]
    #: ``quiz-`` in the first releases' form (``quiz-question:``), else nothing.
    prefix: str = ""


@dataclass
class QuizTag:
    """An mkdocs-quiz 1.x block: the lines between ``<quiz>`` and ``</quiz>``, by number."""

    line: int
    lines: list[tuple[int, str]]


Event = Lines | Heading | Fence | Table | Html | HtmlQuiz | MkQuiz | QuizTag

#: mkdocs-quiz's block, and the ``quiz-start`` … ``quiz-end`` form of its first releases (on lines
#: of their own here: the plugin's regular expression would find them inside a sentence too).
MKDOCS_QUIZ = re.compile(r"<\?quiz\?>(.*?)<\?/quiz\?>|^quiz-start[ \t]*$(.*?)^quiz-end[ \t]*$", re.S | re.M)
#: mkdocs-quiz 1.x's block (mkdocs_quiz/parsing.py: ``<quiz>(.*?)</quiz>``, outside code fences).
QUIZ_TAG = re.compile(r"<quiz>(.*?)</quiz>", re.S)
#: Code fences as the plugin masks them before it looks for quizzes.
_PLUGIN_FENCE = re.compile(r"^[ \t]*`{3,}.*?\n.*?^[ \t]*`{3,}|^[ \t]*~{3,}.*?\n.*?^[ \t]*~{3,}", re.M | re.S)
FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
QUIZ_CONTAINER = re.compile(r"^\s*<(div|form|section|fieldset)\b[^>]*?(?:class\s*=\s*[\"'][^\"']*\bquiz\b|>)", re.I)
INPUT = re.compile(r"<input\b[^>]*\btype\s*=\s*[\"']?(radio|checkbox)", re.I)
BLOCKQUOTE = re.compile(r"^\s{0,3}(?:>\s?)+")


def parser(markdown: bool) -> MarkdownIt:
    md = MarkdownIt("commonmark").enable("table")
    if not markdown:
        md.disable("code")  # a scrape indents as it likes: an indented line is not code in plain text
    return md


def front_matter(text: str) -> tuple[str | None, int]:
    """The front matter's ``title:``, and how many lines the front matter takes."""
    match = FRONT_MATTER.match(text)
    if not match:
        return None, 0
    title = re.search(r"^title:[ \t]*[\"']?(.*?)[\"']?[ \t]*$", match.group(1), re.M)
    return (title.group(1) or None) if title else None, match.group(0).count("\n")


def front_matter_language(text: str) -> str | None:
    """The front matter's ``language:`` (or ``lang:``), if it says one."""
    match = FRONT_MATTER.match(text)
    found = re.search(r"^(?:language|lang):[ \t]*[\"']?([A-Za-z]{2,3}(?:-[A-Za-z0-9]+)?)[\"']?[ \t]*$", match.group(1), re.M) if match else None
    return found.group(1) if found else None


def _quiz_tags(text: str) -> list[re.Match[str]]:
    """mkdocs-quiz 1.x blocks, as the plugin finds them: not inside a code fence of the page (a
    fence inside a quiz is the quiz's)."""
    quizzes = list(QUIZ_TAG.finditer(text))
    fences = [f for f in _PLUGIN_FENCE.finditer(text) if not any(q.start() < f.start() < q.end() for q in quizzes)]
    return [q for q in quizzes if not any(f.start() < q.start() < f.end() for f in fences)]


def events(text: str, markdown: bool) -> tuple[str | None, list[Event]]:
    """The page's title from its front matter (if any), and its blocks in order."""
    lines = text.split("\n")
    title, skip = front_matter(text)
    for number in range(skip):
        lines[number] = ""
    quizzes: list[tuple[int, Event]] = []
    for match in MKDOCS_QUIZ.finditer(text):
        first = text.count("\n", 0, match.start())
        last = text.count("\n", 0, match.end())
        if first < skip:
            continue
        legacy = match.group(1) is None
        body = (match.group(2) if legacy else match.group(1)).split("\n")
        quizzes.append((first, MkQuiz(first + 1, [(first + 1 + i, line) for i, line in enumerate(body)], "quiz-" if legacy else "")))
        for number in range(first, last + 1):
            lines[number] = ""
    for match in _quiz_tags(text):
        first = text.count("\n", 0, match.start())
        last = text.count("\n", 0, match.end())
        if first < skip or not lines[first]:
            continue
        at = text.count("\n", 0, match.start(1))
        quizzes.append((first, QuizTag(first + 1, [(at + 1 + i, line) for i, line in enumerate(match.group(1).split("\n"))])))
        for number in range(first, last + 1):
            lines[number] = ""
    found: list[tuple[int, Event]] = list(quizzes)
    tokens = parser(markdown).parse("\n".join(lines))
    taken_to = 0
    for index, token in enumerate(tokens):
        if token.map is None or token.map[0] < taken_to:
            continue
        start, end = token.map
        if token.type == "html_block" and re.match(r"\s*<[!?]", token.content):
            continue  # a comment, a declaration, a processing instruction: nothing a reader sees
        if token.type == "html_block":
            opened = QUIZ_CONTAINER.match(token.content)
            if opened and ("quiz" in opened.group(0).lower() or INPUT.search(token.content)):
                region = _to_close("\n".join(lines[start:]), opened.group(1))
                found.append((start, HtmlQuiz(start + 1, region)))
                taken_to = start + region.count("\n") + 1
                continue
            found.append((start, Html(start + 1, token.content)))
        elif token.type == "heading_open":
            found.append((start, Heading(start + 1, tokens[index + 1].content)))
        elif token.type in ("fence", "code_block"):
            written = "\n".join(_unquoted(lines[start:end])).strip("\n")
            closing = written.rsplit("\n", 1)[-1].strip() if "\n" in written else ""
            closed = token.type == "code_block" or (closing.startswith(token.markup) and not closing.strip(token.markup[:1]))
            if token.type == "fence" and (not closed or re.search(rf"^\s*{re.escape(token.markup[:1]) * 3}", token.content, re.M)):
                # Never closed (CommonMark ends it with the page), or holding a line that looks like a
                # fence: written again with a fence longer than any run inside, so that it reads the same.
                run = max([len(r) for r in re.findall(rf"{re.escape(token.markup[:1])}+", token.content)] + [len(token.markup) - 1])
                fence = token.markup[:1] * max(len(token.markup), run + 1)
                written = f"{fence}{token.info}\n{token.content}{fence}"
            found.append((start, Fence(start + 1, written, token.content, token.type == "code_block", closed)))
        elif token.type == "table_open":
            found.append((start, _table(tokens, index, lines)))
            taken_to = end
        elif token.type == "paragraph_open":
            found.append((start, Lines([(n + 1, BLOCKQUOTE.sub("", lines[n])) for n in range(start, end)] + [(end, "")])))
    found.sort(key=lambda item: item[0])
    return title, [event for _, event in found]


def _unquoted(lines: list[str]) -> list[str]:
    return [BLOCKQUOTE.sub("", line) for line in lines]


def _to_close(text: str, tag: str) -> str:
    """``text`` from its first tag to where that element closes (or all of it, when it never does)."""
    depth = 0
    for match in re.finditer(rf"<(/?){tag}\b[^>]*>", text, re.I):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return text[: match.end()]
    return text


def _table(tokens: list[Token], index: int, lines: list[str]) -> Table:
    start, end = tokens[index].map or (0, 0)
    table = Table(start + 1, "\n".join(_unquoted(lines[start:end])), [])
    row: list[str] = []
    row_line = start
    for token in tokens[index + 1:]:
        if token.type == "table_close":
            break
        if token.type == "tr_open":
            row, row_line = [], (token.map or (start, 0))[0]
        elif token.type == "inline":
            row.append(token.content.strip())
        elif token.type == "tr_close":
            if not table.header:
                table.header = row
            else:
                table.rows.append((row_line + 1, row))
    return table
