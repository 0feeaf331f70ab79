"""Aiken (Moodle's other plain-text format) -> one quiz of single-choice questions.

Read as Moodle's ``qformat_aiken::readquestions`` reads it (question/format/aiken/format.php):
every line trimmed, lines shorter than two characters ignored; a line ``A)`` or ``A.`` (a capital
letter, then ``)`` or ``.``) is an option; ``ANSWER: B`` names the right one and ends the
question; any other line starts a question. Texts are plain (Moodle escapes them as HTML).

What Moodle refuses (an option or ANSWER: line outside a question, a question with fewer than two
options, a question left without its ANSWER: line) is reported at its line and skipped; Moodle's
import, with "Stop on error" (its default), then imports nothing from the file. A question whose
text runs over several lines, which Moodle reads as one abandoned question per line, is read here
as one question with a line break, with a warning.

Real banks are often written in a dialect Moodle's own import refuses; what their authors meant
is plain, so each is read as meant and said once, at its first line (QB730): options without ')'
or '.' (``A sei libri``, read only in a file with no ``A)`` option, each the next letter of its
question), an answer letter in lower case (``ANSWER: b``), and the qformat_aikenadv plug-in's forms
(its format.php and language packs): options numbered ``1)``, ``NUMBERING: abc|ABCD|123|iii|none``,
the answer keywords of its English, French and Hebrew packs (``ANSWER:``, ``REPONSE:``, ``תשובה:``)
and answers given as a number or a Hebrew letter. Short lines before a question's line (``PARTE
I``, ``CAP. II``: a few words ending in a number, the next line starting with a capital) are a
heading, the title of a section holding the questions after it; Moodle reads each as a question
without options.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..content import plain_text
from ..diagnostics import DiagnosticSink, SourceSpan
from ..plurals import plural
from .base import INVALID, LOST, SURPRISE, ImportedQuiz, QuizBuilder, guess_language, same_title, sanitise_id, short
from .moodletext import decode, default_name, plain_markdown
from .safety import read_input

OPTION = re.compile(r"[A-Z][).][ \t]?")
#: qformat_aikenadv's numbered option, ``1)`` or ``1.``.
NUMBERED = re.compile(r"([1-9])[).][ \t]")
#: An option without its ``)`` or ``.`` (``A sei libri``).
BARE = re.compile(r"([A-Z])[ \t]+(?=\S)")
#: Moodle's answer keyword, then qformat_aikenadv's in its French and Hebrew language packs.
ANSWER = re.compile(r"(ANSWER|REPONSE|RÉPONSE|תשובה):")
#: qformat_aikenadv's numbering line (English, French, Hebrew packs).
NUMBERING = re.compile(r"(?:NUMBERING|NUMEROTATION|NUMÉROTATION|סוג):[ \t]*(\S{0,4})")
#: Moodle's answernumbering values, as the model names them (none for IIII: the model has no upper roman).
#: "": the model's default, A B C.
NUMBERINGS = {"abc": "lower-alpha", "ABCD": "", "ABC": "", "123": "decimal", "iii": "lower-roman", "none": "none"}
#: The Hebrew letters in order (no final forms): qformat_aikenadv's Hebrew pack counts answers from א.
HEBREW = "אבגדהוזחטיכלמנסעפצקרשת"
_SNIFF_OPTION = re.compile(r"^[ \t]*(?:[A-Z][).]|[1-9]\)[ \t]|[A-Z][ \t]+\S)", re.M)
_SNIFF_ANSWER = re.compile(r"^[ \t]*(?:ANSWER|REPONSE|RÉPONSE|תשובה):[ \t]*[A-Za-z1-9\u05d0-\u05ea](?!\w)", re.M)
_SNIFF_NUMBERING = re.compile(r"^[ \t]*(?:NUMBERING|NUMEROTATION|NUMÉROTATION|סוג):", re.M)
#: A heading line before a question: a few words ending in its number ('PARTE I', 'CAP. 2',
#: 'Unit 4'), never a sentence (a question's first line, 'Read the code below', stays its text).
_HEADING = re.compile(r".{0,36}\b(?:[IVXLC]+|\d{1,3})\.?")
STOP = "with 'Stop on error', its default, Moodle's import takes nothing from the file"
DIALECT = "QB730"


def sniff(path: Path, head: bytes) -> bool:
    """Text of Aiken's shape: ``ANSWER: X`` lines, two options or more and one question line (or two)
    per answer."""
    if path.suffix.lower() in (".md", ".markdown", ".xml", ".html", ".htm", ".zip") or head.startswith((b"<", b"PK")):
        return False
    text = head.decode("utf-8", "replace")
    lines = [line.strip() for line in text.split("\n")[:-1] if len(line.strip()) >= 2]  # the last may be cut off
    answers = sum(1 for line in lines if _SNIFF_ANSWER.match(line))
    options = sum(1 for line in lines if _SNIFF_OPTION.match(line))
    others = len(lines) - answers - options - sum(1 for line in lines if _SNIFF_NUMBERING.match(line))
    return answers > 0 and options >= 2 * answers and others <= 2 * answers + 1


@dataclass
class _Question:
    line: int
    #: Its lines before the first option: (line number, column, text).
    stem: list[tuple[int, int, str]]
    options: list[str] = field(default_factory=list)
    #: How its options are written: "letter" (``A)``), "number" (``1)``) or "bare" (``A text``).
    form: str = ""
    numbering: str | None = None
    #: The first option's line as written (a bare 'A …' may be the question's text after all).
    first_option: tuple[int, int, str] | None = None
    #: Heading lines before its text: a section's title, opened when the question is done.
    heading: list[tuple[int, int, str]] = field(default_factory=list)


def import_aiken(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    raw = read_input(path, display, sink)
    if raw is None:
        return []
    lines = decode(raw, display, sink).split("\n")
    # Options without ')' or '.' are read only where the file writes none with them.
    reader = _Reader(path, display, sink, bare=not any(OPTION.match(line.strip()) for line in lines))
    for number, line in enumerate(lines, 1):
        reader.line(number, line)
    reader.end()
    language = guess_language(reader.texts)
    reader.builder.warn(LOST, f"Aiken does not record the quiz's language; '{language}' was taken from its text", SourceSpan(display),
                        hint="change 'language:' in the source if that is wrong")
    quiz = reader.builder.build(sanitise_id(path.stem), path.stem, language)
    return [reader.builder.imported(quiz)] if quiz else []


class _Reader:
    def __init__(self, path: Path, display: str, sink: DiagnosticSink, bare: bool = False) -> None:
        self.display = display
        self.builder = QuizBuilder(display, sink)
        self.section = self.builder.section(path.stem)
        self.question: _Question | None = None
        self.texts: list[str] = []
        self.bare = bare
        #: Each dialect form met: its first line, how many times, and that line (said once, at the end).
        self.dialect: dict[str, list[int]] = {}
        self.first: dict[str, str] = {}

    def met(self, form: str, line: int, text: str) -> None:
        seen = self.dialect.setdefault(form, [line, 0])
        self.first.setdefault(form, text)
        seen[1] += 1

    def span(self, line: int, column: int = 1) -> SourceSpan:
        return SourceSpan(self.display, line, column)

    def skip(self, message: str, line: int, hint: str = f"Moodle refuses it too; {STOP}") -> None:
        self.builder.skip("multichoice", INVALID, message, self.span(line), hint=hint)

    def stray(self, message: str, line: int) -> None:
        """A line outside any question: no question is lost, but Moodle refuses the file."""
        self.builder.warn(INVALID, message, self.span(line), hint=f"Moodle refuses it too; {STOP}")

    def line(self, number: int, raw: str) -> None:
        text = raw.strip()
        if len(text) < 2:
            return
        column = len(raw) - len(raw.lstrip()) + 1
        question = self.question
        option = self.option(question, text)
        if option is not None:
            form, rest = option
            if question is None:
                self.stray(f"the option '{text}' belongs to no question (an option line starts with a capital letter "
                           "and ')' or '.'); skipped", number)
                return
            if form == "bare" and question.form == "bare" and len(question.options) == 1 and rest and text[0] == "A":
                # A second 'A …': the first was the question's text, beginning with the word 'A'.
                assert question.first_option is not None
                question.stem.append(question.first_option)
                question.options.clear()
                self.dialect["bare"][1] -= 1
            if not question.options:
                self.stem_read(question)
                question.form = form
                question.first_option = (number, column, text)
            if form == "number":
                self.met("number", number, text)
            elif form == "bare":
                self.met("bare", number, text)
            question.options.append(rest)
        elif ANSWER.match(text):
            if question is None:
                self.stray(f"'{text}' belongs to no question; skipped", number)
                return
            keyword = ANSWER.match(text).group(1)  # type: ignore[union-attr]
            if keyword != "ANSWER":
                self.met("keyword", number, text)
            self.question = None
            if not question.options:
                self.stem_read(question)
            self.finish(question, text[text.index(":") + 1:].strip()[:1], number, text)
        elif NUMBERING.match(text) and question is not None:
            self.met("numbering", number, text)
            value = NUMBERING.match(text).group(1)  # type: ignore[union-attr]
            question.numbering = NUMBERINGS.get(value)
            if question.numbering is None:  # IIII: the model has no upper roman numbers
                self.builder.warn(LOST, f"the numbering '{value}' of question '{_name(question)}' cannot be kept: the source numbers "
                                        "options a b c, A B C, 1 2 3, i ii iii or not at all", self.span(number, column))
        elif question is not None and not question.options:
            # Moodle drops the question begun on the line before and starts another.
            question.stem.append((number, column, text))
        elif question is not None and question.form == "bare" and text[:1].islower():
            # An option's text broken over lines (no sentence, no question starts in lower case).
            self.met("wrapped", number, text)
            question.options[-1] += " " + text
        else:
            if question is not None:
                self.done(question)
                self.skip(f"question '{_name(question)}' (multichoice) was skipped: it has no ANSWER: line before the next question starts "
                          f"on line {number}", question.line)
            self.question = _Question(number, [(number, column, text)])

    def option(self, question: _Question | None, text: str) -> tuple[str, str] | None:
        """The line as an option: its form and text; None for any other line. A numbered or bare
        option is only the next one of a question begun (``2)`` after ``1)``, ``B`` after ``A``)."""
        if OPTION.match(text):
            return "letter", text[2:].strip()
        if question is None or question.form not in ("", "number", "bare"):
            return None
        numbered = NUMBERED.match(text)
        if numbered and question.form in ("", "number") and int(numbered.group(1)) == len(question.options) + 1:
            return "number", text[2:].strip()
        bare = BARE.match(text) if self.bare else None
        # The next letter; or 'A' again after one 'A …', which was the question's text (see line()).
        letters = {chr(65 + len(question.options))} | ({"A"} if len(question.options) == 1 else set())
        if bare and question.form in ("", "bare") and bare.group(1) in letters:
            return "bare", text[bare.end():].strip()
        return None

    def stem_read(self, question: _Question) -> None:
        """The question's lines are all read (its first option or its answer follows): short lines
        before its text that are no sentence are a heading; more than one line left is its text,
        with a line break, as Moodle would not read it."""
        lines = question.stem
        while len(lines) > 1 and _HEADING.fullmatch(lines[0][2]) and len(lines[0][2].split()) <= 5 and lines[1][2][:1].isupper():
            self.met("heading", lines[0][0], lines[0][2])
            question.heading.append(lines.pop(0))
            question.line = lines[0][0]
        if len(lines) > 1:
            self.builder.warn(SURPRISE, "the question's text goes on over another line: Moodle starts a new question on each line "
                                        "(and refuses the one before); the lines are read here as one question",
                              self.span(lines[1][0], lines[1][1]), hint="write the question on one line (Aiken has no line breaks)")

    def done(self, question: _Question) -> None:
        """The question's lines are all read: a heading before it opens the section it is in."""
        if question.heading:
            self.section = self.builder.section(" — ".join(text for _, _, text in question.heading))

    def end(self) -> None:
        if self.question is not None:
            self.done(self.question)
            self.skip(f"question '{_name(self.question)}' (multichoice) was skipped: it has no ANSWER: line before the end of the file",
                      self.question.line)
        for form, (line, count) in sorted(self.dialect.items(), key=lambda item: item[1][0]):
            self.builder.warn(DIALECT, DIALECT_FORMS[form].format(line=line, count=plural(count, "line"), first=short(self.first[form], 40)), self.span(line),
                              hint="check the imported questions; for Moodle's own Aiken import, write options 'A) ...' and "
                                   "'ANSWER: B' in capitals, one line per question")

    def finish(self, question: _Question, letter: str, line: int, text: str = "") -> None:
        self.done(question)
        stem_text = "\n".join(text for _, _, text in question.stem)
        name = _name(question)
        if len(question.options) < 2:
            self.skip(f"question '{name}' (multichoice) was skipped: it has {plural(len(question.options), 'option')}, and needs two at least", line)
            return
        right = self.answer_index(letter, line, text)
        if not 0 <= right < len(question.options):
            found = f"'{letter}'" if letter else "no letter"
            self.skip(f"question '{name}' (multichoice) was skipped: ANSWER: names {found}, not one of its options A to "
                      f"{chr(64 + len(question.options))}", line, hint="Moodle imports it with no right answer; name the right option "
                                                                  "with its capital letter")
            return
        # Moodle saves no empty option (the others keep their marks).
        options = [(i == right, text) for i, text in enumerate(question.options) if text]
        if len(options) < 2:
            self.skip(f"question '{name}' (multichoice) was skipped: it has fewer than two options that are not empty", line)
            return
        if not any(correct for correct, _ in options):
            self.skip(f"question '{name}' (multichoice) was skipped: its right option {letter} is empty", line,
                      hint="Moodle imports it with no right answer (it saves no empty option)")
            return
        stem = plain_markdown(stem_text)
        self.texts.append(stem)
        data = {"type": "single_choice", "stem": stem, "shuffle": True,
                "choices": [{"id": chr(65 + i), "text": plain_markdown(text), "correct": correct}
                            for i, (correct, text) in enumerate(options)]}
        if question.numbering:
            data["numbering"] = question.numbering
        if name and not same_title(name, plain_text(stem, 100)):
            data["title"] = name
        self.builder.add(self.section, data, self.span(question.line), name, end_line=line, kind="multichoice")


    def answer_index(self, letter: str, line: int, text: str) -> int:
        """The option an answer names: a capital letter as Moodle counts it; a small letter, a
        number or a Hebrew letter as the dialects do (-1: none)."""
        if "A" <= letter <= "Z":
            return ord(letter) - ord("A")
        if "a" <= letter <= "z":
            self.met("lower", line, text)
            return ord(letter) - ord("a")
        if "1" <= letter <= "9":
            self.met("digit", line, text)
            return int(letter) - 1
        if letter and letter in HEBREW:
            self.met("hebrew", line, text)
            return HEBREW.index(letter)
        return -1


#: What each dialect form is read as ({line}: its first line, {count}: how many lines).
DIALECT_FORMS = {
    "bare": "options are written without ')' or '.' after their letter ('{first}'; {count}, from line {line}): each is read as "
            "the next option of its question; Moodle's Aiken import reads such a line as a new question",
    "number": "options are numbered '1)' as the qformat_aikenadv plug-in writes them ('{first}'; {count}, from line {line}): read as "
              "options; Moodle's own Aiken import reads such a line as a new question",
    "numbering": "'NUMBERING:' lines of the qformat_aikenadv plug-in ('{first}'; {count}, from line {line}): read as the question's option "
                 "numbering; Moodle's own Aiken import reads such a line as a new question",
    "keyword": "answers given with a keyword of the qformat_aikenadv plug-in's language packs ('{first}'; {count}, from line {line}): read as "
               "ANSWER: lines; Moodle's own Aiken import reads such a line as a new question",
    "lower": "answers name their option in lower case ('{first}'; {count}, from line {line}): read as the option named; "
             "Moodle's Aiken import gives such a question no right answer",
    "digit": "answers name their option by its number ('{first}'; {count}, from line {line}), as the qformat_aikenadv "
             "plug-in reads them: read as the option numbered; Moodle's own Aiken import gives such a question no right answer",
    "hebrew": "answers name their option by a Hebrew letter ('{first}', א the first; {count}, from line {line}): read as the "
              "option at that place; Moodle's own Aiken import gives such a question no right answer",
    "wrapped": "options go on over another line starting in lower case ('{first}'; {count}, from line {line}): read as the option's text; "
               "Moodle's Aiken import reads such a line as a new question",
    "heading": "short lines before a question's line are headings ('{first}'; {count}, from line {line}): each read as the title "
               "of a section holding the questions after it; Moodle's Aiken import reads such a line as a question without options",
}


def _name(question: _Question) -> str:
    """Moodle's name for it: its text (the line that starts it) shortened to 80 characters."""
    return default_name("\n".join(text for _, _, text in question.stem))
