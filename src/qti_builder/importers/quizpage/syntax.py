"""The words and marks of quiz pages, and the text helpers that read them.

The words are vocabulary.py's, one table per language for the Markdown reader and this importer
alike (labels, true/false words, answer-key titles, question words), and lines are read by the
Markdown reader's own functions (readers/markdown/syntax.py: question numbers, option markers,
labels, sections, passages, points): a pasted exam reads here as it would as a source. What is
only a page's is here: bullets as questions, toggle lines (``정답 보기``), emphasis around labels
(``**Answer:**``), answer keys at the end, tables of questions, options glued by a scrape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from ... import vocabulary as V
from ...diagnostics import shorten
from ...readers.markdown import syntax as S

Data = dict[str, Any]

#: A page that says one thing two ways, or names what is not there: read one way, and said which.
AMBIGUOUS = "QB716"
#: An answer key that cannot be applied to the page's questions (an entry for a question the page
#: does not have, a question it leaves out while it answers the others, an option the question
#: lacks): an error, never a guess.
UNMATCHED_KEY = "QB705"
#: A question whose answer contradicts what the page shows of it (an answer naming an option of a
#: question without options), or whose type cannot be told from it: an error, never an essay in silence.
UNCLEAR = "QB706"

#: Label words -> role, every language's (vocabulary.page_labels()).
LABELS = V.page_labels()


@dataclass(frozen=True)
class PageLabel:
    """A labelled line: the label as written, its role, and the text after it."""

    name: str
    role: str
    value: str


#: Emphasis around a label: ``**Answer:** B``, ``**Answer**: B``, ``*Answer*: B``.
_OPENING_EMPHASIS = re.compile(r"^[*_]{1,3}(?=[^\W\d_]|[【\[［])")
_CLOSING_EMPHASIS = re.compile(r"^([^*_:：\n]{1,40}?)[*_]{1,3}(\s*[:：])|^([^*_:：\n]{1,40}?[:：])\s*[*_]{1,3}")


def read_label(text: str) -> PageLabel | None:
    """A line that starts with a label of any language (``Answer: B``, ``**정답:** ③``, ``[정답] ③``,
    ``정답 - ③``, ``解説：…``), or None."""
    text = _CLOSING_EMPHASIS.sub(lambda m: m.group(1) + m.group(2) if m.group(1) else m.group(3), _OPENING_EMPHASIS.sub("", text.strip()))
    found = S.read_label(text)
    if found is None or found.score is not None:
        return None
    role = LABELS.get(found.name)
    # ``**【分析】**<br>``: the emphasis's end and a line break after the label are no part of its value.
    value = re.sub(r"^(?:<br\s*/?>\s*)+", "", found.value.strip().lstrip("*_").strip(), flags=re.I)
    return PageLabel(found.raw, role, value) if role else None


TOGGLE = re.compile(r"^[▶▼►▸⯈\s]*(정답\s*보기|정답\s*확인|해설\s*보기|show\s+(the\s+)?answers?|reveal\s+(the\s+)?answers?|click\s+to\s+reveal|answer)\s*[▶▼►▸]?$", re.I)
#: ``A - text``: capitals only, and only the option a question expects next (``a - b`` is arithmetic).
DASH_OPTION = re.compile(r"^(?:[-*+•]\s+)?([A-H])\s+[-–—]\s+(.*)$")
#: A task-list item: ``- [ ] wrong``, ``- [x] right``.
TASK = re.compile(r"^[-*+]\s+\[([ xX])\]\s+(.*)$")
#: ``**A)** text``, ``• A) text``: emphasis around an option marker, a bullet of a word processor.
_MARKER_EMPHASIS = re.compile(r"^((?:[-*+]\s+)?)[*_]{1,2}([^*_\s]{1,5})[*_]{1,2}(?=\s)")


def plain_marker(line: str) -> str:
    """A line with a word processor's bullet as Markdown's and no emphasis around its marker."""
    line = re.sub(r"^[•·◦‣]\s+", "- ", line)
    return _MARKER_EMPHASIS.sub(r"\1\2", line)


#: Question lines of pages besides the numbers exams print (S.question_start): ``**3.** …``,
#: ``1.What`` (no space), ``1: …``, ``Q4 How?``.
_PAGE_QUESTION = re.compile(r"^[*_]{0,2}(?:Q|문제\s*)?(\d{1,5})[.):][*_]{0,2}\s*(.+)$|^[*_]{0,2}Q(\d+)[*_]{0,2}\s+(.+)$")
_BULLET = re.compile(r"^[-*+•]\s+(.+)$")


@dataclass(frozen=True)
class QuestionLine:
    """A line that starts a question: its number (None for a bullet), its text, how it is numbered."""

    number: int | None
    text: str
    #: "bullet", or the form of S.question_start ("." for ``1.``, ")" for ``1)``, "．", "문제", ...), or "page".
    form: str


#: A question line in emphasis as a whole, its closing markers maybe unmatched: ``**01. … (5점)**``,
#: ``***16. …*``: the markers are no part of its text (nor of the points at its end).
_EMPHASISED = re.compile(r"^[*_]{1,3}(?=\d)(?P<line>.*?\S)[*_]{1,3}\s*$")


def question_line(line: str) -> QuestionLine | None:
    emphasised = _EMPHASISED.match(line)
    if emphasised and not re.match(r"^[*_]{1,3}\d{1,9}[.)][*_]", line):
        line = emphasised.group("line")
    bullet = _BULLET.match(line)
    if bullet:
        return QuestionLine(None, bullet.group(1).strip(), "bullet")
    start = S.question_start(re.sub(r"^[*_]{1,2}(\d{1,9}[.)])[*_]{1,2}", r"\1", line))
    if start is not None and start.text:
        return QuestionLine(start.number, start.text.strip(), start.form)
    page = _PAGE_QUESTION.match(line)
    if page:
        return QuestionLine(int(page.group(1) or page.group(3)), (page.group(2) or page.group(4)).strip(), "page")
    if start is not None:  # ``문제 1`` alone on its line: the text follows
        return QuestionLine(start.number, "", start.form)
    return None


#: A heading that is a question's: ``## Question 3``, ``### Q3: What …?``, ``### 문제 3``.
QUESTION_HEADING = re.compile(r"^(?:" + "|".join(map(re.escape, V.words("question_words") + ("quiz",)))
                              + r")\s*(\d{1,5})\s*(?:[.:)\-–—]\s*|번\s*|$)(.*)$", re.I)
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

#: The title of an answer key at the end of a page, in any language: ``## Answers``, ``[정답]``,
#: ``정답 및 해설``, ``【正解】``, ``Answer key:``.
KEY_TITLE = S.PAGE_KEY_TITLE
explanations_heading = S.explanations_heading
key_entry = S.key_entry
key_entries = S.key_entries


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
    #: How its options are numbered (vocabulary.OPTION_STYLES), from the first; and each option's
    #: place in that style's order.
    style: str | None = None
    ordinals: list[int] = field(default_factory=list)
    #: Its points as a scoring list after the questions gives them ("## Scoring", "- Question 2: 3 points").
    listed_points: float | None = None
    #: A pairing exercise's slots, ``( ) text`` lines after its numbered items: (line, text).
    pair_slots: list[tuple[int, str]] = field(default_factory=list)
    #: Each labelled part's label as written (``모범답안``), by role.
    label_names: dict[str, str] = field(default_factory=dict)
    #: Shared passages and notes shown with it (``[3~4] 다음 글을 읽고…``, ``※ …``), as written.
    passages: list[str] = field(default_factory=list)
    #: A ``<보기>`` box is open in its text: statement lines keep their line breaks.
    box: bool = False
    #: Where the answer key entry that gave its answer is (line, column), if one did.
    keyed: tuple[int, int] | None = None
    #: Where its text starts in its line.
    column: int = 1
    #: The model's data of a question read whole where it stands (mkdocs-quiz's blanks), emitted as it is.
    ready: Data | None = None
    #: Feedback of its own on an option, by letter (mkdocs-quiz's ``> …`` under an answer).
    choice_feedback: dict[str, str] = field(default_factory=dict)
    #: The heading that started it (``Question 3``), its name where it has no text of its own.
    heading: str = ""

    @property
    def answered(self) -> bool:
        return "answer" in self.labels or "explanation" in self.labels

    def choices(self) -> list[Option]:
        """Its options as answers name them: (letter, text, place in its style's order)."""
        return [(letter, join(text), self.ordinals[i] if i < len(self.ordinals) else ord(letter.upper()) - ord("A") + 1)
                for i, (letter, text) in enumerate(self.options)]

    def fold_options(self) -> None:
        """Options that are the question's own lines (statements before options in another style,
        parts of a question answered by a model answer): back into its text, each on its own line."""
        suffix = {"hangul-consonant": ".", "lower-roman": ".", "parenthesized-decimal": ""}.get(self.style or "", ")")
        if self.stem and self.stem[-1]:
            self.stem[-1] = self.stem[-1].rstrip() + "  "
        for ordinal, (_, text) in zip(self.ordinals, self.options):
            marker = S.option_label(self.style, ordinal)
            self.stem.append(f"{marker}{suffix if self.style != 'circled-decimal' else ''} {join(text)}  ")
        self.options.clear()
        self.ordinals.clear()
        self.style = None
        self.current, self.mode = self.stem, "stem"

    def add_option(self, text: str, ordinal: int | None = None, letter: str | None = None) -> None:
        """The next option (lettered A, B, … by its place unless the page letters it); the next plain line goes on with it."""
        ordinal = ordinal or len(self.options) + 1
        self.options.append((letter or "ABCDEFGHIJKLMNOPQRSTUVWXYZ"[(ordinal - 1) % 26], [text]))
        self.ordinals.append(ordinal)
        self.current, self.mode = self.options[-1][1], "option"

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


#: Column titles of a table of questions or of an answer key, besides the labels of each role
#: (``Answer``, ``정답``, ``Explanation``, ``해설``, … from vocabulary.py).
_NUMBER_COLUMNS = ("#", "no", "number", "q#", "nr", "번호", "문항", "문제 번호", "question number", "q no", "番号")
_QUESTION_COLUMNS = ("question", "questions", "q", "문제", "질문", "문항 내용", "prompt", "問題")
_ANSWER_COLUMNS = ("answers", "solution")
_EXPLANATION_COLUMNS = ("why",)


def columns(header: list[str]) -> dict[str, Any]:
    found: dict[str, Any] = {"options": []}
    for index, cell in enumerate(header):
        name = re.sub(r"[*_`]", "", cell).strip().lower().rstrip(".:")
        if name in _NUMBER_COLUMNS:
            found.setdefault("number", index)
        elif name in _QUESTION_COLUMNS:
            found.setdefault("question", index)
        elif name in _ANSWER_COLUMNS or LABELS.get(name) == "answer":
            found.setdefault("answer", index)
        elif name in _EXPLANATION_COLUMNS or LABELS.get(name) == "explanation":
            found.setdefault("explanation", index)
        else:
            option = re.fullmatch(r"(?:option|choice|보기|선택지)?\s*\(?([a-h])\)?", name)
            if option:
                found["options"].append((option.group(1).upper(), index))
    return found


def cell(row: list[str], index: int) -> str:
    return row[index].strip() if index < len(row) else ""


def next_is_key(rest: list[tuple[int, str]]) -> bool:
    """The next lines are an answer key's entries (``1. ②  2. ①``, ``1. b``), not a question (``2. Which
    ...?`` followed by its options)."""
    lines = [line.strip() for _, line in rest if line.strip()]
    following = lines[0] if lines else ""
    entries = key_entries(following)
    if not entries:
        return False
    if len(entries) > 1:
        return True
    answer = entries[0][1]
    asks = answer.rstrip().endswith(("?", "？")) or (len(lines) > 1 and first_option(lines[1]) is not None
                                                    and not key_entries(lines[1]))
    return len(answer) <= 40 and not asks


def first_option(line: str) -> S.OptionMark | None:
    """The first option of a question, if the line is one: ``A) …``, ``a. …``, ``① …``, ``가) …``,
    ``i) …``, ``イ) …`` (a marker first in its order; not ``1)`` nor ``(1)``, which number lists)."""
    marks = S.option_marks(plain_marker(line))
    mark = S.in_style(marks[0], None) if marks else None
    return mark if mark and mark.ordinal == 1 and mark.style not in ("decimal", "parenthesized-decimal") else None


def next_is_option(rest: list[tuple[int, str]]) -> bool:
    """Is the next line with text a first option (``A) …``, ``① …``, ``- [ ] …``)?"""
    following = next((line.strip() for _, line in rest if line.strip()), "")
    return first_option(following) is not None or bool(TASK.match(following))


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
        out += [piece] if read_label(piece) else split_options(piece.rstrip())
    return out


def unglue_labels(line: str) -> list[str]:
    """"What is 7 × 8? (Answer: 56)" -> the question, and "Answer: 56" on a line of its own."""
    if read_label(line.strip()):
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


#: A lettered option at a line's start: ``A) …``, ``a. …``, ``(b) …``, ``- A) …``, ``**A)** …``.
_LETTERED = re.compile(r"^(?:[-*+•]\s+)?[*_]{0,2}\(?([A-Ha-h])[).][*_]{0,2}\s+(.*)$")


def split_options(line: str) -> list[str]:
    """``A) Nucleus B) Mitochondrion C) Ribosome`` -> one option a line, the letters in sequence.
    (Circled options on one line, ``① 서울 ② 부산``, are read as several by S.option_marks.)"""
    option = _LETTERED.match(line)
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
    a space. In answers and explanations a line that ends a sentence ends a paragraph. A line
    kept on purpose (two spaces at its end: an exam's statements) keeps its break."""
    out = ""
    for line in lines:
        if not line:
            out = out.rstrip() + "\n\n" if out else out
        elif not out or out.endswith("\n\n"):
            out += line
        elif out.endswith("  "):
            out += "\n" + line
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
        if read_label(bare) or (wrapped and read_label(wrapped.group(2))) or read_label(bare.replace("\\", "")):
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


#: An option as the answer is told from: its letter (the choice id), its text, its place in its style's order.
Option = tuple[str, str, int]
#: Words between option markers of an answer naming several: ``A and C``, ``A & C``, ``가 및 다``.
_AND = re.compile(r"\s*&\s*|\s+(?:" + "|".join(re.escape(w) for w in V.words("and_words") if w != "&") + r")\s+", re.I)
#: Words before the marker in a sentence that gives it: "The correct answer is (B)", "정답은 ③", "正解は イ".
ANSWER_IS = re.compile(r"^(?:the\s+)?(?:correct\s+|right\s+)?answer\s+is\s*:?\s*|^정답은\s*|^正解は\s*"
                       # "letra B", "alternativa C", "option B": the word for an option before its marker
                       r"|^(?:letra|alternativa|opção|opcao|opción|letter|option|choice)\s+(?=\(?[A-Za-z0-9][).]?(?:\s|$|,))", re.I)
_CIRCLED = S._order("circled-decimal")


def _lettered(style: str | None) -> bool:
    return style in (None, "upper-alpha", "lower-alpha")


def _answer_line(answer: str, style: str | None) -> str:
    """An answer's first line as it names options: no emphasis, no "The answer is", and for
    lettered options circled numbers as their letters (a scraped page answers ``③`` for ``C)``)."""
    first = ANSWER_IS.sub("", re.sub(r"[*_]{1,3}", "", first_line(plain_fence(answer))).strip())
    if _lettered(style):
        first = re.sub(f"[{_CIRCLED}]", lambda m: chr(ord("A") + _CIRCLED.index(m.group())), first)
    return first


def _named(first: str) -> tuple[list[tuple[str, int]], str] | None:
    """The options a line names and what it says after them: ``A, C`` (nothing after), ``B) its
    text`` or ``② 입니다`` (one, and the rest)."""
    # "A and C", "A & C", "가 및 다": a page's answer names several so (a source writes "A, C").
    refs = S.option_refs(_AND.sub(", ", first))
    if refs:
        return refs, ""
    marks = S.option_marks(first)
    if marks and len(marks) == 1:
        return [(S.STYLE_FAMILY[marks[0].style], marks[0].ordinal)], first[marks[0].text_start:].strip()
    token = re.match(r"^(\S+?)[.,)）]?(?:\s+|$)", first)
    refs = S.option_refs(token.group(1)) if token else None
    if token and refs and len(refs) == 1:
        return refs, first[token.end():].strip()
    return None


def answer_letters(answer: str, options: list[Option], style: str | None = None) -> tuple[list[str], list[str]]:
    """The letters an answer names, and the markers it names that are no option: by an option's
    whole text, by its marker (``B``, ``③``, ``나``, ``ii``, ``A, C``, ``B) its text``, ``정답은 ②``),
    or by starting with an option's whole text."""
    first = _answer_line(answer, style)
    squeezed = re.sub(r"\s+", "", first).lower()
    same = [letter for letter, text, _ in options if re.sub(r"\s+", "", text).lower() == squeezed]
    if same and len(squeezed) > 1:
        return same[:1], []
    # "HyperText Markup Language: hypertext is …": the answer starts with an option's whole text.
    starts = sorted(((len(t), letter) for letter, text, _ in options if len(t := re.sub(r"\s+", "", text).lower()) > 3
                     and squeezed.startswith(t) and not squeezed[len(t):len(t) + 1].isalnum()), reverse=True)
    if starts:
        return [starts[0][1]], []
    named = _named(first)
    if named is None:
        return [], []
    letters: list[str] = []
    unknown: list[str] = []
    for ref in named[0]:
        letter = next((letter for letter, _, ordinal in options if S.names_option(ref, style, ordinal)), None)
        if letter is None:
            family, number = ref
            written = style if S.STYLE_FAMILY.get(style or "upper-alpha") == family else \
                {"letter": "upper-alpha", "roman": "lower-roman", "number": "decimal"}.get(family, family)
            unknown.append(S.option_label(written, number))
        elif letter not in letters:
            letters.append(letter)
    return letters, unknown


def says_more(answer: str, options: list[Option], style: str | None = None) -> bool:
    """Does the answer's first line say more than which option is right ("B", "A, C", "B) its text")?
    Then all of it is the explanation too: "HyperText Markup Language: hypertext is text with links"."""
    first = _answer_line(answer, style)
    named = _named(first)
    rest = first if named is None else named[1]
    if len(rest) <= 1:
        return False
    squeezed = re.sub(r"\s+", "", rest).lower()
    return all(re.sub(r"\s+", "", text).lower() != squeezed for _, text, _ in options)


def repaired(option: str, answer: str) -> str:
    """The answer line repeats the option ("정답: B) text"); when the two differ only in spaces, the
    scrape ran words together in the option, and the answer's copy is the better one."""
    first = first_line(answer)
    marks = S.option_marks(first)
    repeated = first[marks[0].text_start:].strip() if marks else first
    if repeated and repeated != option and re.sub(r"\s+", "", repeated) == re.sub(r"\s+", "", option):
        return repeated
    return option
