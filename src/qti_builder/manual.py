"""``qti-builder docs``: the pages of ``docs/`` as they ship with the installed tool.

The pages are package data (``resources.data_dir("docs")``), so a user with nothing but the wheel
can read the source format, the question types, CI and the rest; every hint and ``--help`` names
``qti-builder docs PAGE#section`` rather than a file in a repository the user may not have.
A topic is a page's name (``source-format``), a short alias (``types``), ``PAGE#section`` for one
section (anchors as GitHub makes them), or a diagnostic code (its entry and the sections that
mention it).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from markdown_it import MarkdownIt

from .resources import data_dir

#: Short names a user may type for a page.
ALIASES = {
    "source": "source-format", "format": "source-format", "markdown": "source-format", "yaml": "source-format",
    "types": "question-types", "questions": "question-types",
    "media": "content", "math": "content",
    "importing": "import",
    "schema": "schemas",
    "lms": "lms-behaviour", "canvas": "lms-behaviour", "moodle": "lms-behaviour",
    "update": "updating", "reimport": "updating", "diff": "updating",
}


@dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    level: int
    #: Lines of the page, 0-based: from the heading up to the next heading of the same or a higher level.
    start: int
    end: int


@dataclass(frozen=True)
class Page:
    name: str
    title: str
    text: str
    sections: tuple[Section, ...]

    def section(self, anchor: str) -> str:
        found = next(s for s in self.sections if s.anchor == anchor)
        return "\n".join(self.text.splitlines()[found.start:found.end]).rstrip() + "\n"


def slug(title: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces as hyphens."""
    text = re.sub(r"[^\w\- ]", "", title.strip().lower())
    return text.replace(" ", "-")


@lru_cache(maxsize=None)
def pages() -> dict[str, Page]:
    """Every shipped page by name (its file name without ``.md``), in name order."""
    folder = data_dir("docs")
    return {path.stem: _page(path) for path in sorted(folder.glob("*.md"))}


def _page(path: Path) -> Page:
    text = path.read_text(encoding="utf-8")
    tokens = MarkdownIt("commonmark").parse(text)  # headings outside code blocks only
    heads: list[tuple[int, int, str, str]] = []
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.map:
            title = tokens[i + 1].content
            explicit = re.search(r"\s*\{#([\w-]+)\}\s*$", title)
            anchor = explicit.group(1) if explicit else slug(title)
            heads.append((int(token.tag[1]), token.map[0], title[:explicit.start()] if explicit else title, anchor))
    total = len(text.splitlines())
    sections = []
    seen: dict[str, int] = {}
    for k, (level, start, title, anchor) in enumerate(heads):
        end = next((s for lv, s, _, _ in heads[k + 1:] if lv <= level), total)
        if anchor in seen:  # GitHub numbers repeated anchors: name, name-1, name-2
            seen[anchor] += 1
            anchor = f"{anchor}-{seen[anchor]}"
        else:
            seen[anchor] = 0
        sections.append(Section(anchor, title, level, start, end))
    title = sections[0].title if sections else path.stem
    return Page(path.stem, title, text, tuple(sections))


#: The docs' own test markers (tests/test_docs.py runs the examples they mark): HTML comments,
#: which a Markdown viewer hides and the terminal would show.
_DOC_TEST = re.compile(r"<!-- doc-test:.*?-->[ \t]*\n?", re.S)


def for_reading(text: str) -> str:
    """A page as ``qti-builder docs`` prints it: without the doc-test markers, and without the
    blank lines they leave behind."""
    return re.sub(r"\n{3,}", "\n\n", _DOC_TEST.sub("", text))


class UnknownTopic(LookupError):
    """A topic no page, section or code has; the message says what there is."""


def lookup(topic: str) -> str:
    """The text ``qti-builder docs TOPIC`` prints."""
    from .codes import explain
    from .codes import lookup as code_lookup

    name, _, anchor = topic.strip().partition("#")
    name = name.lower().removesuffix(".md").removeprefix("docs/")
    code = code_lookup(name) if re.fullmatch(r"(?i)(qb)?\d{3}", name) else None
    if code is not None:
        places = mentions(code.code)
        more = ["", "Sections that mention it:", *(f"  qti-builder docs {p}" for p in places)] if places else []
        return explain(code) + "\n" + "\n".join(more) + ("\n" if more else "")
    page = pages().get(ALIASES.get(name, name))
    if page is None:
        raise UnknownTopic(f"no page '{name}'{_suggest(name, list(pages()) + list(ALIASES))}; pages: {', '.join(pages())}")
    if not anchor:
        return for_reading(page.text)
    anchors = [s.anchor for s in page.sections]
    if anchor.lower() not in anchors:
        raise UnknownTopic(f"{page.name} has no section '{anchor}'{_suggest(anchor.lower(), anchors)}; "
                           f"'qti-builder docs {page.name}' lists them")
    return for_reading(page.section(anchor.lower()))


def mentions(code: str) -> list[str]:
    """``page#section`` of every innermost section that mentions ``code`` (the table of every code aside)."""
    found = []
    for page in pages().values():
        lines = page.text.splitlines()
        for section in page.sections:
            inner = [s for s in page.sections if section.start < s.start < section.end]
            own_end = min([s.start for s in inner] + [section.end])
            if section.anchor != "every-code" and any(re.search(rf"\b{code}\b", line) for line in lines[section.start:own_end]):
                found.append(f"{page.name}#{section.anchor}")
    return found


def index() -> str:
    """What ``qti-builder docs`` prints without a topic: every page, and how to open one."""
    width = max(len(name) for name in pages())
    lines = ["The documentation that ships with qti-builder:", ""]
    lines += [f"  {name.ljust(width)}  {page.title}" for name, page in pages().items()]
    lines += ["", "Open a page with 'qti-builder docs PAGE', a section with 'qti-builder docs PAGE#section'",
              "(each page's sections are listed below), and what a diagnostic code means with 'qti-builder docs QB142'.", ""]
    for name, page in pages().items():
        lines.append(f"{name}:")
        lines += [f"  {name}#{s.anchor}" for s in page.sections if s.level == 2]
    return "\n".join(lines) + "\n"


def _suggest(word: str, choices: list[str]) -> str:
    import difflib

    close = difflib.get_close_matches(word, choices, n=1, cutoff=0.6)
    return f"; did you mean '{close[0]}'?" if close else ""
