"""The HTML a quiz page holds: ``<details>`` answer blocks, HTML quizzes with inputs, and
mkdocs-quiz blocks.

HTML is parsed with lxml.html (libxml2's forgiving HTML parser: no DTD, no entities beyond
HTML's own, no network, its default size and depth limits), never as XML: a page is not
well-formed XML and need not be.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import partial
from html import escape
from textwrap import dedent

from lxml import etree
from lxml import html as lxml_html

from .syntax import read_label

#: Text as HTML: ``&``, ``<`` and ``>`` escaped (quotes need none outside attributes).
_escape = partial(escape, quote=False)

#: ``<summary>`` texts that hide the answer (the block holds the answer, and perhaps why), an
#: explanation, or a hint; any other summary is part of the page's visible text.
REVEALS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(show|see|reveal|check|view)?\s*(the\s+)?(correct\s+)?(answers?|solutions?|key)(\s+(and|&)\s+(explanation|solution))?"
                r"|^click\s+(here\s+)?(to\s+)?(reveal|see|show)|^(정답|답|해답|모범\s*답안)(\s*(및|과|와)?\s*(해설|풀이|설명))?(\s*(보기|확인|확인하기))?$", re.I),
     "answer"),
    (re.compile(r"^(show\s+)?(the\s+)?(explanation|rationale|feedback|why\b.*)$|^(해설|설명|풀이)(\s*(보기|확인))?$", re.I), "explanation"),
    (re.compile(r"^(show\s+)?(a\s+)?hints?$|^힌트(\s*보기)?$", re.I), "hint"),
)
DETAILS_TAGS = re.compile(r"<(/?)(details|summary)\b[^>]*>", re.I)


def reveal_role(summary: str) -> str | None:
    text = re.sub(r"[▶▼►▸⯈:：?!.…]+", " ", summary).strip()
    text = re.sub(r"\s+", " ", text)
    return next((role for pattern, role in REVEALS if pattern.search(text)), None)


def details_parts(html: str) -> list[tuple[str, str, int]]:
    """An HTML block as ("open" | "summary" | "text" | "close", text, line offset) parts: a
    ``<details>`` may open in one block and close in another, Markdown between."""
    parts: list[tuple[str, str, int]] = []
    at, summary_from = 0, -1
    for match in DETAILS_TAGS.finditer(html):
        closing, tag = match.group(1), match.group(2).lower()
        if tag == "summary":
            if not closing:
                summary_from = match.end()
            elif summary_from >= 0:
                parts.append(("summary", text_of(html[summary_from: match.start()]), html.count("\n", 0, match.start())))
                summary_from = -1
            at = match.end()
            continue
        if summary_from >= 0:
            continue
        if html[at: match.start()].strip():
            parts.append(("text", html[at: match.start()], html.count("\n", 0, at)))
        parts.append(("close" if closing else "open", "", html.count("\n", 0, match.start())))
        at = match.end()
    if html[at:].strip():
        parts.append(("text", html[at:], html.count("\n", 0, at)))
    return parts


def opened_details(fragment: str) -> str:
    """``<details>`` shown open: the summary a bold paragraph, then the content (a source has no
    collapsible blocks, and the build's sanitiser removes ``<details>``)."""
    root = _parse(fragment)
    for details in reversed(list(root.iter("details"))):
        summaries = tuple(details.iter("summary"))
        title = " ".join(" ".join(s.text_content().split()) for s in summaries)
        body = inner_html(details, summaries)
        if not re.search(r"<(p|div|ul|ol|pre|table|blockquote|h\d)\b", body):
            body = f"<p>{body}</p>"
        replacement = lxml_html.fragments_fromstring((f"<p><strong>{_escape(title)}</strong></p>" if title else "") + body)
        for element in replacement:
            if isinstance(element, str):
                continue
            details.addprevious(element)
        parent = details.getparent()
        if parent is not None:
            tail = details.tail
            previous = details.getprevious()
            parent.remove(details)
            if tail and previous is not None:
                previous.tail = (previous.tail or "") + tail
    return inner_html(root)


def text_of(fragment: str) -> str:
    if not fragment.strip():
        return ""
    return " ".join(_parse(fragment).text_content().split())


def _parse(fragment: str) -> lxml_html.HtmlElement:
    return lxml_html.fragment_fromstring(fragment, create_parent="div")


def inner_html(element: etree._Element, drop: tuple[etree._Element, ...] = ()) -> str:
    """The element's content as HTML, without the elements in ``drop`` (a child's tail kept, a
    nested element's content dropped with it)."""
    out = [_escape(element.text or "")]
    for child in element:
        if child in drop:
            out.append(_escape(child.tail or "") if child.getparent() is element and child.tag != "label" else "")
            continue
        if any(d in drop for d in child.iter()):
            out.append(inner_html(child, drop) + _escape(child.tail or ""))
            continue
        out.append(etree.tostring(child, encoding="unicode", method="html", with_tail=True))
    return "".join(out).strip()


# -- HTML quizzes with inputs ---------------------------------------------------------------------


@dataclass
class HtmlOption:
    html: str
    #: The markers that make it correct, as found (``checked``, ``data-correct``, ``class="correct"``).
    markers: list[str]
    line: int


@dataclass
class HtmlQuestion:
    #: The line of its first input, from the start of the fragment (1-based).
    line: int
    kind: str  # radio, checkbox, or the input type that cannot be imported
    stem: list[str] = field(default_factory=list)
    options: list[HtmlOption] = field(default_factory=list)
    feedback: list[str] = field(default_factory=list)


STEM_TAGS = {"p", "h1", "h2", "h3", "h4", "h5", "h6", "legend", "pre", "blockquote", "table", "ul", "ol", "figure", "img", "code"}
FEEDBACK_CLASSES = {"feedback", "explanation", "solution", "answer", "content", "rationale", "correct-feedback"}
#: A labelled text ("Answer: B", "Explanation: …", "정답: ③"): never a question's.
ANSWER_LABEL = read_label
SKIPPED_TAGS = {"button", "script", "style", "noscript", "template"}


def _classes(element: etree._Element) -> set[str]:
    return set((element.get("class") or "").lower().split())


def correct_markers(element: etree._Element) -> list[str]:
    found = []
    if element.get("checked") is not None:
        found.append("checked")
    data = element.get("data-correct")
    if data is not None and data.strip().lower() not in ("false", "0", "no", "n"):
        found.append("data-correct")
    if element.get("correct") is not None:
        found.append("correct")
    if "correct" in _classes(element):
        found.append('class="correct"')
    return found


def html_questions(fragment: str) -> list[HtmlQuestion]:
    """The questions of an HTML quiz: one per group of inputs (by ``name``), with the text before
    its first input as the stem, its inputs' labels as options and feedback elements after it."""
    root = _parse(fragment)
    labels_for = {label.get("for"): label for label in root.iter("label") if label.get("for")}
    questions: list[HtmlQuestion] = []
    by_name: dict[str, HtmlQuestion] = {}
    pending: list[str] = []
    taken: set[etree._Element] = set()
    for element in root.iter():
        if not isinstance(element.tag, str):
            continue
        classes, tag = _classes(element), element.tag.lower()
        if tag != "input" and any(a in taken for a in element.iterancestors()):
            continue
        if tag in SKIPPED_TAGS:
            taken.add(element)
        elif tag == "input":
            kind = (element.get("type") or "text").lower()
            if kind in ("submit", "button", "reset", "hidden"):
                continue
            if kind in ("radio", "checkbox"):
                holder = next(element.iterancestors("fieldset", "form", "div", "section", "ul", "ol"), root)
                key = element.get("name") or f"#{id(holder)}"
            else:
                key = f"#{id(element)}"
            question = by_name.get(key)
            if question is None or question.kind != kind:
                if not pending:  # "<p>Question? <label><input …>": the text before the input, in its block
                    block = next(element.iterancestors("p", "div", "li", "fieldset", "form", "section"), None)
                    if block is not None and block is not root and (block.text or "").strip():
                        pending = [_escape(_before_label(block.text or ""))]
                question = HtmlQuestion(_line(element), kind, pending)
                pending = []
                by_name[key] = question
                questions.append(question)
            label = labels_for.get(element.get("id")) if element.get("id") else None
            label = label if label is not None else next((a for a in element.iterancestors("label")), None)
            if label is not None:
                # Unclosed labels nest (<label><input> A <label><input> B): each keeps its own text.
                text = inner_html(label, (element, *label.iter("label", "input")))
                markers = correct_markers(element) + correct_markers(label)
                taken.add(label)
            else:
                # An input without a label: its text follows it, and the element holding the two
                # (``<li class="correct">``) may carry the mark.
                parent = element.getparent()
                held = parent is not None and parent.tag in ("li", "p", "span", "div") and len(list(parent.iter("input"))) == 1
                text = _following_text(element)
                markers = correct_markers(element) + (correct_markers(parent) if held and parent is not None else [])
            question.options.append(HtmlOption(text or _escape(element.get("value") or ""), markers, _line(element)))
        elif tag == "label":
            continue  # read with its input
        elif tag == "details" or classes & FEEDBACK_CLASSES:
            taken.add(element)
            if questions:
                questions[-1].feedback.append(inner_html(element, tuple(element.iter("summary"))))
        elif ANSWER_LABEL(element.text_content().strip()) and not list(element.iter("input")):
            taken.add(element)  # "<p>Answer: B</p>" after the inputs: what the last question's feedback says, never a stem
            if questions:
                questions[-1].feedback.append(etree.tostring(element, encoding="unicode", method="html", with_tail=False))
        elif (tag in STEM_TAGS or classes & {"question", "prompt", "stem"}) and not list(element.iter("input")):
            taken.add(element)
            if tag in ("legend", "h1", "h2", "h3", "h4", "h5", "h6"):  # a question's title, not a heading of the page
                pending.append(f"<p>{inner_html(element)}</p>")
            else:
                pending.append(etree.tostring(element, encoding="unicode", method="html", with_tail=False))
    if pending and questions:  # text after the last input: shown once answered, like mkdocs-quiz's content
        questions[-1].feedback.extend(pending)
    return questions


def _before_label(text: str) -> str:
    """Text up to its first labelled line ("Answer: B"), which is never a question's."""
    lines = text.split("\n")
    index = next((i for i, line in enumerate(lines) if ANSWER_LABEL(re.sub(r"^[>\s]+", "", line))), len(lines))
    return "\n".join(lines[:index]).strip()


def _line(element: etree._Element) -> int:
    return element.sourceline or 1


def _following_text(element: etree._Element) -> str:
    """The text after an input without a label: its tail and inline siblings, to the next input or line break."""
    out = [_escape(element.tail or "")]
    for sibling in element.itersiblings():
        if not isinstance(sibling.tag, str) or sibling.tag in ("input", "br", "div", "p", "li"):
            break
        out.append(etree.tostring(sibling, encoding="unicode", method="html", with_tail=True))
    return "".join(out).strip()


# -- mkdocs-quiz ----------------------------------------------------------------------------------


@dataclass
class MkQuizParsed:
    """An mkdocs-quiz block as the plugin reads it (mkdocs_quiz/plugin.py): blank lines at its
    start and end dropped; the first line ``question: …``; ``answer-correct: …`` and ``answer: …``
    lines up to a line ``content:``; everything after ``content:`` the HTML shown once answered."""

    question: str = ""
    #: (text, correct, line)
    answers: list[tuple[str, bool, int]] = field(default_factory=list)
    content: str = ""
    #: Lines between the question and ``content:`` that are no answer: (line, text).
    ignored: list[tuple[int, str]] = field(default_factory=list)
    problem: str | None = None


def mkdocs_quiz(lines: list[tuple[int, str]], prefix: str = "") -> MkQuizParsed:
    parsed = MkQuizParsed()
    question, correct, answer, content = (f"{prefix}{word}" for word in ("question: ", "answer-correct: ", "answer: ", "content:"))
    while lines and lines[0][1] == "":
        lines = lines[1:]
    while lines and lines[-1][1] == "":
        lines = lines[:-1]
    if not lines or not lines[0][1].startswith(question):
        parsed.problem = f"an mkdocs-quiz block must start with '{question}' (the plugin refuses it too)"
        return parsed
    parsed.question = lines[0][1].split(question, 1)[1]
    texts = [text for _, text in lines]
    end = texts.index(content) if content in texts else len(lines)
    for number, text in lines[1:end]:
        if text.startswith(correct):
            parsed.answers.append((text.split(correct, 1)[1], True, number))
        elif text.startswith(answer):
            parsed.answers.append((text.split(answer, 1)[1], False, number))
        elif text.strip():
            parsed.ignored.append((number, text))
    parsed.content = "\n".join(text for _, text in lines[end + 1:]).strip()
    # The plugin marks every answer whose text is a correct answer's text correct.
    right = {text for text, correct, _ in parsed.answers if correct}
    parsed.answers = [(text, text in right, number) for text, _, number in parsed.answers]
    return parsed


# -- mkdocs-quiz 1.x: <quiz> ... </quiz> ----------------------------------------------------------

#: An answer line as the plugin reads it (mkdocs_quiz/parsing.py): ``- [x] right``, ``* [ ] wrong``.
_CHECKBOX = re.compile(r"^[-*] \[(.?)\] (.*)$")
#: Feedback on the answer above it: ``> text`` lines right under it.
_ANSWER_FEEDBACK = re.compile(r"^\s*>\s?(.*)$")
_FILL_BLANK = re.compile(r"\[\[([^\]]+)\]\]")


@dataclass
class QuizTagParsed:
    """An mkdocs-quiz 1.x block as the plugin reads it (mkdocs_quiz/plugin.py): the question up to
    the first answer line; ``- [x]``/``- [ ]`` answers (``*`` bullets too), each with the ``>``
    lines right under it as its feedback; the Markdown after the answers shown once answered. A
    block with ``[[answer]]`` in it is a fill-in-the-blank question, its content after a ``---``."""

    question: str = ""
    #: (text, correct, feedback, line)
    answers: list[tuple[str, bool, str, int]] = field(default_factory=list)
    content: str = ""
    #: The answers of a fill-in-the-blank block, in order.
    blanks: list[str] = field(default_factory=list)
    problem: str | None = None


def quiz_tag(lines: list[tuple[int, str]]) -> QuizTagParsed:
    parsed = QuizTagParsed()
    text = "\n".join(line for _, line in lines)
    if _FILL_BLANK.search(text):
        body = dedent(text).split("\n")
        cut = next((i for i, line in enumerate(body) if line.strip() == "---"), len(body))
        parsed.question = "\n".join(body[:cut]).strip()
        parsed.content = "\n".join(body[cut + 1:]).strip()
        parsed.blanks = [m.group(1).strip() for m in _FILL_BLANK.finditer(parsed.question)]
        if not parsed.blanks:
            parsed.problem = "its blanks are after the '---' that ends the question (the plugin refuses it too)"
        return parsed
    dedented = dedent(text).split("\n")
    numbered = [(number, line) for (number, _), line in zip(lines, dedented)]
    while numbered and numbered[0][1] == "":
        numbered = numbered[1:]
    while numbered and numbered[-1][1] == "":
        numbered = numbered[:-1]
    first = next((i for i, (_, line) in enumerate(numbered) if _CHECKBOX.match(line)), None)
    if first is None:
        parsed.question = "\n".join(line for _, line in numbered).strip()
        parsed.problem = "it has no answer lines '- [x] …' or '- [ ] …' (the plugin refuses it too)"
        return parsed
    parsed.question = "\n".join(line for _, line in numbered[:first]).strip()
    index, end = first, first
    while index < len(numbered):
        number, line = numbered[index]
        box = _CHECKBOX.match(line)
        if box:
            if box.group(1) not in ("x", "X", " ", ""):
                parsed.problem = f"line {number} marks an answer '[{box.group(1)}]', which is neither '[x]' nor '[ ]' (the plugin refuses it too)"
                return parsed
            feedback: list[str] = []
            index += 1
            while index < len(numbered) and _ANSWER_FEEDBACK.match(numbered[index][1]):
                feedback.append(_ANSWER_FEEDBACK.match(numbered[index][1]).group(1))  # type: ignore[union-attr]
                index += 1
            parsed.answers.append((box.group(2), box.group(1).lower() == "x", "\n".join(feedback).rstrip(), number))
            end = index
            continue
        if not line.strip():
            index += 1
            continue
        if _ANSWER_FEEDBACK.match(line) and any(_CHECKBOX.match(rest) for _, rest in numbered[index + 1:]):
            parsed.problem = f"the feedback at line {number} is parted from its answer by a blank line (the plugin refuses it too)"
            return parsed
        break
    parsed.content = "\n".join(line for _, line in numbered[end:]).strip()
    # The plugin marks every answer whose text is a correct answer's text correct.
    right = {text for text, correct, _, _ in parsed.answers if correct}
    parsed.answers = [(text, text in right, feedback, number) for text, _, feedback, number in parsed.answers]
    if not parsed.question:
        parsed.problem = "it has no question before its answers (the plugin refuses it too)"
    elif not right:
        parsed.problem = "none of its answers is marked '- [x]' (the plugin refuses it too)"
    return parsed
