"""The words and marks of quiz pages: labels, options, question lines, answer keys, and the text
helpers that read them (which letters an answer names, a text's lines joined)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ...diagnostics import shorten
from ...readers.markdown import syntax as S

Data = dict[str, Any]

#: A page that says one thing two ways, or names what is not there: read one way, and said which.
AMBIGUOUS = "QB716"

#: Label words -> role, English and Korean (the Markdown dialect's labels, and a few more).
LABELS = {**S.QUESTION_LABELS, "답": "answer", "solution": "explanation", "풀이": "explanation",
          "해답": "answer", "correct": "answer", "rationale": "explanation", "feedback": "explanation", "key": "answer"}
LABEL = re.compile(r"^[*_]{0,2}(" + "|".join(sorted(map(re.escape, LABELS), key=len, reverse=True)) + r")[*_]{0,2}\s*[:：][*_]{0,2}\s*(.*)$", re.I)
TOGGLE = re.compile(r"^[▶▼►▸⯈\s]*(정답\s*보기|정답\s*확인|해설\s*보기|show\s+(the\s+)?answers?|reveal\s+(the\s+)?answers?|click\s+to\s+reveal|answer)\s*[▶▼►▸]?$", re.I)
OPTION = re.compile(r"^(?:[-*+•]\s+)?[*_]{0,2}\(?([A-Ha-h])[).][*_]{0,2}\s+(.*)$")
#: ``① text``: options as Korean exams number them.
CIRCLED_OPTION = re.compile(r"^(?:[-*+•]\s+)?([①②③④⑤⑥⑦⑧])\s*(.+)$")
#: ``A - text``: capitals only, and only the option a question expects next (``a - b`` is arithmetic).
DASH_OPTION = re.compile(r"^(?:[-*+•]\s+)?([A-H])\s+[-–—]\s+(.*)$")
#: A task-list item: ``- [ ] wrong``, ``- [x] right``.
TASK = re.compile(r"^[-*+]\s+\[([ xX])\]\s+(.*)$")
QUESTION = re.compile(r"^(?:[-*+•]\s+|[*_]{0,2}(?:Q|문제\s*)?(\d{1,5})[.):][*_]{0,2}\s*|[*_]{0,2}Q(\d+)[*_]{0,2}\s+)(.+)$")
#: A heading that is a question's: ``## Question 3``, ``### Q3: What …?``, ``### 문제 3``.
QUESTION_HEADING = re.compile(r"^(?:question|q|quiz|problem|문제|문항)\s*(\d{1,5})\s*(?:[.:)\-–—]\s*|번\s*|$)(.*)$", re.I)
#: Options glued by a scrape: "...했다 - C) CPU" or "무엇인가요?- A) 워커".
GLUED = re.compile(r"(?<=\S)\s*-\s+(?=[A-H]\)\s)")
#: An answer label run onto the end of a line ("D) Paris Answer: B"): it starts a line of its own.
GLUED_LABEL = re.compile(r"(?<=\S)\s+(?=[(\[]?[*_]{0,2}(?:answer|correct answer|정답)[*_]{0,2}\s*[:：])", re.I)
#: A label in brackets, as a line of its own after GLUED_LABEL: "(Answer: 4)".
BRACKETED_LABEL = re.compile(r"^[(\[]([*_]{0,2}(?:answer|correct answer|정답)[*_]{0,2}\s*[:：][^)\]]*)[)\]]", re.I)
#: Lines that introduce the options rather than ask ("Choose one:"), never a question's text alone.
SECTION_LIKE = re.compile(r"^(choose|select|pick)\b.{0,30}[:：]$|^(options|choices|보기)\s*[:：]?$", re.I)
#: ``??? success "Answer"``, ``???+ question "Solution"``, ``!!! note``: an admonition's first line.
ADMONITION = re.compile(r'^(\s*)(\?{3}\+?|!{3})\s*([\w-]+)?(?:\s+"([^"]*)")?\s*$')
SENTENCE_END = re.compile(r"[.?!。？！:]$|[다요음임함됨]\.$")
#: The title of an answer key at the end of a page.
KEY_TITLE = re.compile(r"^[#*_\s]*(answers?|answer\s+key|answer\s+sheet|key|solutions?|정답|정답표|정답\s*(및|과)\s*해설|해답)[*_\s]*[:：]?[*_\s]*$", re.I)
#: ``1. B``, ``1) B``, ``1-B``, ``Q1: B``, ``1 – B``, ``문제 1: B``, ``1번: B``.
KEY_ENTRY = re.compile(r"^(?:[-*+]\s+)?[*_]{0,2}(?:Q|문제\s*)?(\d{1,5})\s*(?:번\s*[.):]?|[.):\-–—])[*_]{0,2}\s*(.+)$")
#: Why a question with options has no answer, and how to give it one, by how the page wrote it.
NO_ANSWER = {
    "question": ("it has options but no answer that names one", "add 'Answer: B' after the options, or an answer key at the end ('1. B')"),
    "mkdocs-quiz": ("none of its answers is 'answer-correct: '", "mark the right answer 'answer-correct: '"),
    "HTML radio": ("no option is marked correct", "mark the right input checked, data-correct or class=\"correct\""),
    "table row": ("its answer names no option", "put the option's letter or text in the answer column"),
}
NO_ANSWER["HTML checkbox"] = NO_ANSWER["HTML radio"]
#: A line that is one HTML element: ``<p>Answer: B</p>``.
WRAPPED = re.compile(r"<(p|div|span|b|strong|em|i|li)\b[^>]*>(.*?)(?:</\1\s*>)?", re.I)
#: A Markdown table with a header, its delimiter row and one row at least.
TABLE_WITH_BODY = re.compile(r"\|.*\n\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*\n\s*\|")
FENCE_LINE = re.compile(r"^\s*(```|~~~)")
CLOSING_TAGS = re.compile(r"(?:</[A-Za-z][\w-]*\s*>\s*)+")


@dataclass
class Question:
    """A question as the page is read: its lines, options and labelled parts, by role."""

    line: int
    stem: list[str]
    section: Data
    #: As the page numbers it (``3.``, ``Q3``), or None.
    number: int | None = None
    options: list[tuple[str, list[str]]] = field(default_factory=list)
    #: Options the page itself marks correct, by letter, with how (``[x]``, ``checked``).
    marked: dict[str, str] = field(default_factory=dict)
    labels: dict[str, list[str]] = field(default_factory=dict)
    label_lines: dict[str, int] = field(default_factory=dict)
    #: The list the next plain line continues, and how ("stem"/"option" join lines, "label" keeps paragraphs).
    current: list[str] | None = None
    mode: str = "stem"
    #: Its texts are Markdown already (converted from HTML, a table's cells): never escaped.
    converted: bool = False
    #: What the page makes it, for the skipped count.
    kind: str = "question"
    end: int = 0
    #: Where each statement of the answer starts: (line, index in ``labels["answer"]``).
    answer_starts: list[tuple[int, int]] = field(default_factory=list)
    #: Its number was not on the page: it follows the number of the question before.
    implied: bool = False

    @property
    def answered(self) -> bool:
        return "answer" in self.labels or "explanation" in self.labels

    def open(self, role: str, line: int) -> None:
        """Lines from here on are its ``role`` part (answer, explanation, …), a paragraph after
        what that part already holds."""
        self.labels.setdefault(role, [])
        self.label_lines.setdefault(role, line)
        if any(self.labels[role]):
            self.labels[role].append("")
        if role == "answer":
            self.answer_starts.append((line, len(self.labels[role])))
        self.current, self.mode = self.labels[role], "label"


def columns(header: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = {"options": []}
    for index, cell in enumerate(header):
        name = re.sub(r"[*_`]", "", cell).strip().lower().rstrip(".:")
        if name in ("#", "no", "number", "q#", "nr", "번호", "문항", "문제 번호", "question number", "q no"):
            found.setdefault("number", index)
        elif name in ("question", "questions", "q", "문제", "질문", "문항 내용", "prompt"):
            found.setdefault("question", index)
        elif name in ("answer", "answers", "correct answer", "correct", "key", "solution", "정답", "답", "해답"):
            found.setdefault("answer", index)
        elif name in ("explanation", "rationale", "feedback", "why", "해설", "설명", "풀이"):
            found.setdefault("explanation", index)
        else:
            option = re.fullmatch(r"(?:option|choice|보기|선택지)?\s*\(?([a-h])\)?", name)
            if option:
                found["options"].append((option.group(1).upper(), index))
    return found


def cell(row: list[str], index: int) -> str:
    return row[index].strip() if index < len(row) else ""


def next_is_key(rest: list[tuple[int, str]]) -> bool:
    following = next((line.strip() for _, line in rest if line.strip()), "")
    entry = KEY_ENTRY.match(following)
    return bool(entry and len(entry.group(2)) <= 40)


def next_is_option(rest: list[tuple[int, str]]) -> bool:
    """Is the next line with text a first option (``A) …``, ``a. …``, ``- [ ] …``)?"""
    following = next((line.strip() for _, line in rest if line.strip()), "")
    option = OPTION.match(following)
    return bool(option and option.group(1) in "Aa") or bool(TASK.match(following))


def key_pairs(line: str) -> list[tuple[int, str]]:
    """``1-B, 2-C; 3-A`` (or separated by tabs or wide spaces): entries on one line, when every
    piece is one; else none (``1. A, C`` is one entry)."""
    pieces = [p.strip() for p in re.split(r"[,;]|\t|\s{3,}", line) if p.strip()]
    entries = [KEY_ENTRY.match(p) for p in pieces]
    if len(pieces) < 2 or not all(entries):
        return []
    return [(int(e.group(1)), e.group(2).strip()) for e in entries if e]


def number_range(numbers: list[int]) -> str:
    if not numbers:
        return "none"
    if numbers == list(range(numbers[0], numbers[-1] + 1)):
        return f"{numbers[0]}–{numbers[-1]}" if len(numbers) > 1 else str(numbers[0])
    return ", ".join(map(str, numbers[:8])) + (", …" if len(numbers) > 8 else "")


def unglue(line: str) -> list[str]:
    """One line, glued options and answer labels split apart."""
    out: list[str] = []
    for piece in unglue_labels(GLUED.sub("\n- ", line)):
        out += [piece] if LABEL.match(piece) else split_options(piece.rstrip())
    return out


def unglue_labels(line: str) -> list[str]:
    """"What is 7 × 8? (Answer: 56)" -> the question, and "Answer: 56" on a line of its own."""
    if LABEL.match(line.strip()):
        return [line]  # "Model answer: …", "Correct answer: …" are labels already
    out = []
    for piece in GLUED_LABEL.sub("\n", line).split("\n"):
        bracketed = BRACKETED_LABEL.match(piece.strip())
        if bracketed:
            out.append(bracketed.group(1))
            if piece.strip()[bracketed.end():].strip():
                out.append(piece.strip()[bracketed.end():].strip())
        else:
            out.append(piece)
    return out


def split_options(line: str) -> list[str]:
    """``A) Nucleus B) Mitochondrion C) Ribosome`` -> one option a line, the letters in sequence."""
    option = OPTION.match(line)
    if not option:
        return [line]
    letter = option.group(1).upper()
    following = chr(ord(letter) + 1)
    match = re.search(rf"\s+\(?(?={following}[).]\s)", line[option.start(2):])
    if not match:
        return [line]
    cut = option.start(2) + match.start()
    return [line[:cut].rstrip()] + split_options(line[option.start(2) + match.end():])


def join(lines: list[str], paragraphs: bool = False) -> str:
    """Lines of one text. In stems and options a break is a scrape's artefact (a lost code span):
    a space. In answers and explanations a line that ends a sentence ends a paragraph."""
    out = ""
    for line in lines:
        if not line:
            out = out.rstrip() + "\n\n" if out else out
        elif not out or out.endswith("\n\n"):
            out += line
        elif paragraphs and SENTENCE_END.search(out):
            out += "\n\n" + line
        else:
            out += ("\n" if paragraphs else " ") + line
    return out.strip()


def short(text: str, width: int = 50) -> str:
    return shorten(" ".join(text.split()), width)


def paragraphs(text: str) -> list[str]:
    """A text's paragraphs, a code fence whole (blank lines inside it are its own)."""
    out: list[str] = []
    fence = ""
    for paragraph in text.split("\n\n"):
        if fence:
            out[-1] += "\n\n" + paragraph
        else:
            out.append(paragraph)
        for line in paragraph.split("\n"):
            stripped = line.strip()
            if not fence:
                marker = FENCE_LINE.match(line)
                fence = marker.group(1) if marker else ""
            elif stripped.startswith(fence) and not stripped.strip(fence[:1]):
                fence = ""
    return out


def leaked_at(text: str) -> int | None:
    """The index of the first line of ``text``, outside code, that carries a label ("Answer: B",
    "> **정답:** ③", "<p>Explanation: …</p>"): in a question's text, where students would read it."""
    found = [index for index, _, _ in S.label_lines(text)][:1]  # what the source reader takes for a label
    fence = ""
    for index, line in enumerate(text.split("\n")):
        stripped = line.strip()
        if fence:
            fence = "" if stripped.startswith(fence) and not stripped.strip(fence[:1]) else fence
            continue
        marker = FENCE_LINE.match(line)
        if marker:
            fence = marker.group(1)
            continue
        bare = re.sub(r"^(?:&gt;|>|\s|\\)+", "", stripped)
        wrapped = WRAPPED.fullmatch(bare)
        if LABEL.match(bare) or (wrapped and LABEL.match(wrapped.group(2))) or LABEL.match(bare.replace("\\", "")):
            found.append(index)
            break
    return min(found) if found else None


def first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0].strip()


def after_first(answer: str) -> str:
    """An answer's paragraphs after the one that names it: what it says about why."""
    paragraphs = plain_fence(answer).split("\n\n") if FENCE_LINE.match(answer) else answer.split("\n\n")
    return "\n\n".join(paragraphs[1:]).strip()


def plain_fence(text: str) -> str:
    """An answer given in a code fence, without the fence lines."""
    if not FENCE_LINE.match(text):
        return text
    return "\n".join(line for line in text.split("\n") if not FENCE_LINE.match(line)).strip()


def plain(text: str) -> str:
    return S.bare(" ".join(plain_fence(text).split()))


def answer_letters(answer: str, options: list[tuple[str, str]]) -> tuple[list[str], list[str]]:
    """The letters an answer names, and the letters it names that are no option."""
    letters = [letter for letter, _ in options]
    first = circled_to_letters(first_line(plain_fence(answer)).strip("*_ "))
    first = ANSWER_IS.sub("", first)  # "The answer is B.", "정답은 B"
    squeezed = re.sub(r"\s+", "", first).lower()
    same = [letter for letter, text in options if re.sub(r"\s+", "", text).lower() == squeezed]
    if same and len(squeezed) > 1:
        return same[:1], []
    # "HyperText Markup Language: hypertext is …": the answer starts with an option's whole text.
    starts = sorted(((len(t), letter) for letter, text in options if len(t := re.sub(r"\s+", "", text).lower()) > 3
                     and squeezed.startswith(t) and not squeezed[len(t):len(t) + 1].isalnum()), reverse=True)
    if starts:
        return [starts[0][1]], []
    many = re.match(r"^\(?([A-Ha-h])\)?(?:\s*(?:[,/&]|and|및)\s*\(?([A-Ha-h])\)?)+\s*\.?$", first)
    if many:
        named = [c.upper() for c in re.findall(r"(?<![A-Za-z])[A-Ha-h](?![A-Za-z])", first)]
        return [c for c in named if c in letters], [c for c in named if c not in letters]
    single = re.match(r"^\(?([A-Ha-h])\)?(?:[.):]|\s|$)", first)
    if single:
        letter = single.group(1).upper()
        return ([letter], []) if letter in letters else ([], [letter])
    return [], []


def says_more(answer: str, options: list[tuple[str, str]]) -> bool:
    """Does the answer's first line say more than which option is right ("B", "A, C", "B) its text")?
    Then all of it is the explanation too: "HyperText Markup Language: hypertext is text with links"."""
    first = ANSWER_IS.sub("", circled_to_letters(re.sub(r"[*_]{1,3}", "", first_line(plain_fence(answer))).strip()))
    rest = re.sub(r"^\(?[A-Ha-h]\)?[.):]?(\s+|$)", "", first)
    if len(rest) <= 1 or re.fullmatch(r"(?:\(?[A-Ha-h]\)?\s*(?:[,/&]|and|및)?\s*)+\.?", first):
        return False
    squeezed = re.sub(r"\s+", "", rest).lower()
    return all(re.sub(r"\s+", "", text).lower() != squeezed for _, text in options)


#: Words before the letter in a sentence that gives it: "The correct answer is (B)", "정답은 ③".
ANSWER_IS = re.compile(r"^(?:the\s+)?(?:correct\s+|right\s+)?answer\s+is\s*:?\s*|^정답은\s*", re.I)
CIRCLED = "①②③④⑤⑥⑦⑧"


def circled_to_letters(text: str) -> str:
    """Korean exams number options ① ② ③ ④: they are the options A, B, C, D."""
    return re.sub(f"[{CIRCLED}]", lambda m: chr(ord("A") + CIRCLED.index(m.group())), text)


def repaired(option: str, answer: str) -> str:
    """The answer line repeats the option ("정답: B) text"); when the two differ only in spaces, the
    scrape ran words together in the option, and the answer's copy is the better one."""
    repeated = re.sub(r"^\(?[A-Ha-h]\)?[.):]?\s*", "", first_line(answer))
    if repeated and repeated != option and re.sub(r"\s+", "", repeated) == re.sub(r"\s+", "", option):
        return repeated
    return option

