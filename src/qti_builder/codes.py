"""Every diagnostic code qti-builder can print, as data: what it means, where it is reported, how
to fix it, and an example of the mistake with its fix.

``qti-builder explain QB142`` prints an entry; docs/source-format.md#every-code holds the table
:func:`markdown_table` makes from all of them. Tests keep the three in step: every code the source
emits has an entry, the docs table is this table, and each example source really gives its code
(and its fix does not).

Codes by stage: QB1xx reading a source, QB2xx checking its values, QB3xx writing the outputs,
QB4xx validating them against the schemas, QB5xx files, QB6xx LMS profiles, QB7xx importing.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

FRONT = "---\ntitle: T\n---\n"


@dataclass(frozen=True)
class Code:
    code: str
    severity: str
    #: What the message says, in one sentence.
    summary: str
    #: Where the diagnostic points.
    location: str
    #: How to fix it.
    hint: str
    #: A source with the mistake, and the same source fixed. With ``syntax`` "md" or "yaml" they
    #: are whole sources (the tests build them); with "text" they are described in words.
    mistake: str = ""
    fix: str = ""
    syntax: str = "md"
    #: Run the example with this ``--profile`` (QB6xx).
    profile: str | None = None
    #: File name of the example source, without suffix.
    file: str = "example"

    @property
    def is_warning(self) -> bool:
        return self.severity == "warning"


def _e(code: str, summary: str, location: str, hint: str, mistake: str = "", fix: str = "", **more: str) -> Code:
    return Code(code, "error", summary, location, hint, mistake, fix, **more)  # type: ignore[arg-type]


def _w(code: str, summary: str, location: str, hint: str, mistake: str = "", fix: str = "", **more: str) -> Code:
    return Code(code, "warning", summary, location, hint, mistake, fix, **more)  # type: ignore[arg-type]


_CALC = "1. A car covers {d} km in {t} h. Its speed in km/h? {#speed type=calculated}\n\n```variables\n"

_CHOICE = "1. Which keyword defines a function? {#def}\n\nA) func\nB) def\n\n"

CODES_LIST: tuple[Code, ...] = (
    # -- QB1xx: reading the source ------------------------------------------------------------
    _e("QB100", "The file cannot be read, has no reader (a suffix other than .md, .markdown, .yaml, .yml) or is larger than --max-source-mb (256 MiB by default).",
       "the file", "name sources *.md or *.yaml and make them readable; raise --max-source-mb for a larger source",
       "a quiz saved as quiz.txt", "the same quiz saved as quiz.md", syntax="text"),
    _e("QB101", "The file is not valid UTF-8.", "the first byte that is not UTF-8",
       "save the file as UTF-8", "a source saved as Latin-1 or EUC-KR", "the same source saved as UTF-8", syntax="text"),
    _e("QB102", "A character that XML does not allow (a control character, often from copy-paste; a page break, U+000C, of a paper saved as text is read as nothing, not this error).",
       "the character", "delete it", "a question text with an invisible U+000B (vertical tab) pasted in it",
       "the question text without it", syntax="text"),
    _e("QB103", "A Markdown source does not start with front matter.", "line 1",
       "begin the file with the lines '---', 'title: My quiz', '---'",
       _CHOICE + "Answer: B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB104", "The front matter is not closed.", "line 1",
       "add a line '---' after the last front-matter key",
       "---\ntitle: T\n\n" + _CHOICE + "Answer: B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB105", "The front matter is not 'key: value' lines.", "the front matter's first line",
       "write one setting per line, such as 'title: My quiz', with no '- ' in front",
       "---\n- title: T\n---\n" + _CHOICE + "Answer: B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB106", "An unknown front-matter key, or a quiz setting written outside 'settings:'.", "the key",
       "use one of the known keys (the message suggests the nearest)",
       "---\ntitle: T\nlangauge: en\n---\n" + _CHOICE + "Answer: B\n", "---\ntitle: T\nlanguage: en\n---\n" + _CHOICE + "Answer: B\n"),
    _e("QB107", "The front matter has no 'title'.", "line 1", "add a line 'title: ...' to the front matter",
       "---\nlanguage: en\n---\n" + _CHOICE + "Answer: B\n", "---\ntitle: T\nlanguage: en\n---\n" + _CHOICE + "Answer: B\n"),
    _e("QB108", "A code fence is never closed.", "the opening fence", "add the closing line (``` or ~~~) after the code",
       FRONT + "1. What does this print? {#p type=essay}\n\n   ```python\n   print(1)\n", FRONT + "1. What does this print? {#p type=essay}\n\n   ```python\n   print(1)\n   ```\n"),
    _e("QB109", "An unknown or unreadable {...} attribute, or one that does not apply to the question's type.",
       "the attribute", "write attributes as {#id key=value}, with the names listed in the hint",
       FRONT + "1. Which keyword defines a function? {#def pionts=2}\n\nA) func\nB) def\n\nAnswer: B\n",
       FRONT + "1. Which keyword defines a function? {#def points=2}\n\nA) func\nB) def\n\nAnswer: B\n"),
    _e("QB110", "A YAML source that is not a mapping with the keys title and sections.", "line 1",
       "start the file with 'title: ...' and 'sections:' at the left margin",
       "- title: T\n", "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - {type: essay, id: q, stem: Why}\n",
       syntax="yaml"),
    _e("QB111", "A YAML syntax error (in a YAML source or in front matter).", "where the YAML parser stops",
       "check the indentation, and quote values that contain ': ' or start with a special character",
       "---\ntitle: Ray: a quiz\n---\n" + _CHOICE + "Answer: B\n", "---\ntitle: \"Ray: a quiz\"\n---\n" + _CHOICE + "Answer: B\n"),
    _e("QB112", "A YAML key that is not plain text.", "the key",
       "write a name before the colon, such as 'title:'",
       "[a]: T\n", "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - {type: essay, id: q, stem: Why}\n",
       syntax="yaml"),
    _e("QB113", "A YAML key given twice.", "the second key", "each key may appear once; remove or rename one of them",
       "title: T\ntitle: U\nsections:\n  - id: s\n    title: S\n    questions:\n      - {type: essay, id: q, stem: Why}\n",
       "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - {type: essay, id: q, stem: Why}\n", syntax="yaml"),
    _e("QB114", "YAML nested deeper than --max-yaml-depth (100 levels by default), aliases (*name) repeating more values than --max-yaml-alias-values (1,000,000), or an alias inside the value it names.",
       "the value or alias that passes the limit",
       "a quiz needs about 8 levels of nesting; write out what aliases repeat, or raise the option the message names",
       "a YAML file whose aliases repeat a list of a million entries", "the list written once", syntax="text"),
    _e("QB115", "An unknown label: a near miss such as 'Anwser:', or any 'Word:' right after the options or items.",
       "the label", "correct the label (the message suggests the nearest), or indent the line to continue the option",
       FRONT + _CHOICE + "Anwser: B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB116", "A label twice in one question, two 'Feedback:' lines for one option or answer, or several 'Answer:' lines in a question that takes one.",
       "the second label", "merge the two blocks; several 'Answer:' lines are for short_answer and numerical questions",
       FRONT + _CHOICE + "Answer: B\nExplanation: `def` starts a function.\nExplanation: `func` is not Python.\n",
       FRONT + _CHOICE + "Answer: B\nExplanation: `def` starts a function; `func` is not Python.\n"),
    _e("QB117", "Text or a code block after the options or items that is neither indented nor labelled.", "the line",
       "indent it to continue the last option, or start it with a label such as 'Explanation:'",
       FRONT + _CHOICE + "Remember the colon.\n\nAnswer: B\n", FRONT + _CHOICE + "Answer: B\nExplanation: Remember the colon.\n"),
    _e("QB118", "A quiz description both in the front matter and before the first section.", "the text before the first section",
       "keep one of the two",
       "---\ntitle: T\ndescription: A warm-up.\n---\nA warm-up quiz.\n\n" + _CHOICE + "Answer: B\n",
       "---\ntitle: T\ndescription: A warm-up.\n---\n" + _CHOICE + "Answer: B\n"),
    _e("QB119", "The quiz has no questions.", "the start of the text after the front matter",
       "add a question: a line '1. Question text', options 'A) ...' and 'Answer: A'",
       FRONT + "Questions will follow.\n", FRONT + "Questions will follow.\n\n" + _CHOICE + "Answer: B\n"),
    _e("QB120", "A question without its answer: options but no 'Answer:', or a true/false, short-answer or numerical question without one.",
       "the question", "add a line 'Answer: ...' (or '정답: ...') at the left margin after the question",
       FRONT + _CHOICE, FRONT + _CHOICE + "Answer: B\n"),
    _e("QB121", "type=single_choice with several correct letters.", "the answer",
       "give one letter, or drop type=single_choice to make a multiple-response question",
       FRONT + "1. Which are keywords? {#kw type=single_choice}\n\nA) def\nB) class\nC) func\n\nAnswer: A, B\n",
       FRONT + "1. Which are keywords? {#kw}\n\nA) def\nB) class\nC) func\n\nAnswer: A, B\n"),
    _e("QB122", "An option marker used twice in a question.", "the second option",
       "give each option its own marker",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA) func\nA) def\n\nAnswer: B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB123", "An option without text.", "the option", "write the option's text after 'B)', or remove the option",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA) func\nB)  \nC) def\n\nAnswer: C\n",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA) func\nB) lambda\nC) def\n\nAnswer: C\n"),
    _w("QB124", "'Answer: B) text' where the text differs from option B's.", "the answer",
       "copy the option's text, or give only its letter",
       FRONT + _CHOICE + "Answer: B) define\n", FRONT + _CHOICE + "Answer: B) def\n"),
    _e("QB125", "The answer of a choice question cannot be read.", "the answer",
       "give the marker of the correct option as the question marks it, such as 'Answer: B', 'Answer: A, C' or '정답: ③'",
       FRONT + _CHOICE + "Answer: the second one\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB126", "The answer names an option that does not exist, or names it by a marker of another style than the options' ('③' for options A-E).", "the answer", "use one of the options' markers, in their style",
       FRONT + _CHOICE + "Answer: C\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB127", "A choice question without options.", "the question", "add options at the left margin: 'A) ...', 'B) ...'",
       FRONT + "1. Which keyword defines a function? {#def type=single_choice}\n\nAnswer: B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB128", "A question with no options, no answer and no type=.", "the question",
       "add options and 'Answer: B', a model answer 'Answer: ...' for an essay, or a {type=...}",
       FRONT + "1. Explain recursion. {#rec}\n", FRONT + "1. Explain recursion. {#rec type=essay}\n"),
    _e("QB129", "An answer on a text-only item, or on a matching or ordering question (whose list is the answer).",
       "the answer", "remove the answer block",
       FRONT + "1. Read the code below. {#intro type=text_only}\n\nAnswer: nothing\n", FRONT + "1. Read the code below. {#intro type=text_only}\n"),
    _e("QB130", "A question line with no text after the number.", "the question", "write the question after the number: '1. What is ...?'",
       FRONT + "1. {#def}\n\nA) func\nB) def\n\nAnswer: B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB131", "An unknown question type.", "the type", "use one of the types listed in the hint (the message suggests the nearest)",
       FRONT + "1. Explain recursion. {#rec type=eassy}\n", FRONT + "1. Explain recursion. {#rec type=essay}\n"),
    _e("QB132", "Options, or a list of items, on a type that has none.", "the first option or item",
       "remove the options or the list, or change the type",
       FRONT + "1. Explain recursion. {#rec type=essay}\n\nA) a function calling itself\nB) a loop\n",
       FRONT + "1. What is recursion? {#rec}\n\nA) a function calling itself\nB) a loop\n\nAnswer: A\n"),
    _e("QB133", "An id used twice in a quiz.", "the second use", "ids must be unique in a quiz; rename one of them",
       FRONT + _CHOICE + "Answer: B\n\n2. Is Python typed? {#def}\n\nAnswer: true\n",
       FRONT + _CHOICE + "Answer: B\n\n2. Is Python typed? {#typed}\n\nAnswer: true\n"),
    _e("QB134", "Options after the answer or another label.", "the option",
       "move the options up, before the labels; in a model answer, indent a line that starts like 'A)'",
       FRONT + "1. Which keyword defines a function? {#def}\n\nAnswer: B\n\nA) func\nB) def\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB135", "The file name cannot be the quiz id (ids use letters, digits, '-', '_', '.').", "line 1",
       "add 'id: ...' to the front matter (the hint suggests one)",
       FRONT + _CHOICE + "Answer: B\n", "---\ntitle: T\nid: my-quiz\n---\n" + _CHOICE + "Answer: B\n", file="my quiz"),
    _e("QB136", "'Feedback:' under an option that is not indented.", "the label",
       "indent it by a few spaces; for feedback on the whole question use 'Explanation:'",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA) func\nFeedback: not Python\nB) def\n\nAnswer: B\n",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA) func\n   Feedback: not Python\nB) def\n\nAnswer: B\n"),
    _e("QB137", "'Answer (N%):', or 'Feedback:' under an answer, on a type other than short answer and numerical.",
       "the label", "write 'Answer:' without '(N%)', or use 'Explanation:' and 'Incorrect feedback:'",
       FRONT + "1. Explain recursion. {#rec type=essay}\n\nAnswer (50%): a function that calls itself\n",
       FRONT + "1. Explain recursion. {#rec type=essay}\n\nAnswer: a function that calls itself\n"),
    _e("QB138", "A true/false answer that is not a true/false word.", "the answer",
       "write 'Answer: true' or 'Answer: false' (or '정답: 참' or '정답: 거짓')",
       FRONT + "1. Python has a `def` keyword. {#def type=true_false}\n\nAnswer: correct\n",
       FRONT + "1. Python has a `def` keyword. {#def type=true_false}\n\nAnswer: true\n"),
    _e("QB139", "A numerical answer that cannot be read.", "the answer",
       "write 3.14, 3.14 ± 0.01, 100 ± 5% or a range 2..4, with '.' for decimals; a unit goes in {unit=cm}",
       FRONT + "1. How long is a pencil? {#pencil type=numerical}\n\nAnswer: 18 cm\n",
       FRONT + "1. How long is a pencil? {#pencil type=numerical unit=cm}\n\nAnswer: 18\n"),
    _e("QB140", "A matching item that is not 'prompt -> answer' or '-> distractor'.", "the item",
       "write '- prompt -> answer'",
       FRONT + "1. Match the capitals. {#cap type=matching}\n\n- France: Paris\n- Spain -> Madrid\n",
       FRONT + "1. Match the capitals. {#cap type=matching}\n\n- France -> Paris\n- Spain -> Madrid\n"),
    _e("QB141", "A matching or ordering question with fewer than two items.", "the question",
       "add lines such as '- First step' at the left margin after the question text",
       FRONT + "1. Order the steps. {#steps type=ordering}\n\n- Write\n", FRONT + "1. Order the steps. {#steps type=ordering}\n\n- Write\n- Run\n"),
    _e("QB142", "A fill-in-the-blank question without blanks, with an empty answer in a blank, or with a drop-down that marks more than one option '*'.",
       "the blank (the question, when it has none)",
       "write [[answer | other accepted answer]] or [[*right | wrong]], with one '*' and text between the '|'",
       FRONT + "1. The sky is [[*blue | *grey | red]]. {#sky type=fill_in_blank}\n",
       FRONT + "1. The sky is [[*blue | grey | red]]. {#sky type=fill_in_blank}\n"),
    _e("QB143", "A YAML tag such as !!python/object.", "the tag", "a quiz holds plain text, numbers, lists and mappings",
       "title: !!python/object:os.system T\n", "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - {type: essay, id: q, stem: Why}\n",
       syntax="yaml"),
    _e("QB144", "A fill-in-the-blank [[...]] inside code, math or a link, where it cannot become an answer field.", "the blank",
       "move the blank into the running text of the question",
       FRONT + "1. Complete: `[[len]]('abc') == 3`. {#len type=fill_in_blank}\n", FRONT + "1. The function [[len]] counts the items of a list. {#len type=fill_in_blank}\n"),
    _e("QB145", "An 'Answer:', 'Explanation:' or other label outside a question: in the quiz description or a section introduction, which students see.",
       "the label", "put it after a numbered question ('1. ...'); to show the words themselves, write 'Answer\\:'",
       FRONT + "Answer: every question below.\n\n" + _CHOICE + "Answer: B\n",
       FRONT + "Answer\\: every question below.\n\n" + _CHOICE + "Answer: B\n"),
    _e("QB146", "A heading followed by 'Answer:' (or whose text asks a question and is followed by a label): a question written as a heading, which would be a section whose introduction students see.",
       "the heading's text", "write the question as a numbered line without '#': '2. Is the earth round?'",
       FRONT + "# Basics\n\n" + _CHOICE + "Answer: B\n\n## Is the earth round?\n\nAnswer: true\n",
       FRONT + "# Basics\n\n" + _CHOICE + "Answer: B\n\n2. Is the earth round? {#round}\n\nAnswer: true\n"),
    _e("QB147", "A paragraph that looks like a question but has no number (or whose number has no space after it, or more than 9 digits), or a question written as a heading whose number was lost ('## . text' with its options under it); without it, the text would be part of the block above.",
       "the paragraph", "number it: '2. What is ...?' at the left margin",
       FRONT + _CHOICE + "Answer: B\n\nWhat does `len('ab')` return?\n\nA) 1\nB) 2\n\nAnswer: B\n",
       FRONT + _CHOICE + "Answer: B\n\n2. What does `len('ab')` return? {#len}\n\nA) 1\nB) 2\n\nAnswer: B\n"),
    _e("QB148", "An 'Answer:' (or another label) indented into the question text, an option or an item, which students see, in a question without that block.",
       "the label", "start the label at the left margin; to show the words themselves, write 'Answer\\:'",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA) func\nB) def\n   Answer: B\n",
       FRONT + _CHOICE + "Answer: B\n"),
    _e("QB149", "A short answer that goes on over several lines.", "the second line",
       "put each accepted answer on its own 'Answer:' line",
       FRONT + "1. Who wrote Hamlet? {#hamlet type=short_answer}\n\nAnswer: Shakespeare\nWilliam Shakespeare\n",
       FRONT + "1. Who wrote Hamlet? {#hamlet type=short_answer}\n\nAnswer: Shakespeare\nAnswer: William Shakespeare\n"),
    _w("QB150", "Raw HTML that is not allowed was removed.", "the tag", "use Markdown instead; scripts, frames and styles never reach a package",
       FRONT + "1. Explain recursion. <script>alert(1)</script> {#rec type=essay}\n", FRONT + "1. Explain recursion. {#rec type=essay}\n"),
    _w("QB151", "An event-handler attribute (onclick=...) or a javascript:, vbscript: or data: URL was removed.", "the attribute or URL",
       "remove it: packages carry no scripts",
       FRONT + "1. Explain <a href=\"javascript:alert(1)\">recursion</a>. {#rec type=essay}\n", FRONT + "1. Explain <a href=\"https://en.wikipedia.org/wiki/Recursion\">recursion</a>. {#rec type=essay}\n"),
    _e("QB152", "A formula that cannot be converted to MathML.", "the formula", "check the TeX; write \\$ for a literal dollar sign",
       FRONT + "1. Simplify $\\frac{1}{$. {#frac type=essay}\n", FRONT + "1. Simplify $\\frac{1}{2}$. {#frac type=essay}\n"),
    _w("QB153", "Display math \\[...\\] written inside a line of text, where it is not read as math.", "the \\[",
       "put \\[ and \\] on lines of their own, or write $...$ inline",
       FRONT + "1. Simplify \\[x^2/x\\] please. {#x type=essay}\n", FRONT + "1. Simplify $x^2/x$ please. {#x type=essay}\n"),
    _e("QB154", "A line shaped like the paper's structure (a heading, a question, a points rule, an answer key's title, the title of the instructions) after an answer or explanation, in a form the reader does not take there: it is never read as that block's text.",
       "the line", "indent it to keep it in the block above; else write it as a section heading ('Ⅱ. 단답형', 'Part II. Short answer') or a question ('3. ...')",
       "---\ntitle: T\nlanguage: zh\n---\n1. 地球是圆的。\n答案：√\n（每题4分，共24分。）\n",
       "---\ntitle: T\nlanguage: zh\n---\n一、判断题（每题4分，共24分。）\n\n1. 地球是圆的。\n答案：√\n"),
    _e("QB155", "Text after the paper's closing mark ('- 끝 -', '- End -', '以上'), which ends the questions: it belongs to no question.",
       "the text", "move it above the closing mark, into the question it belongs to, or delete it",
       "---\ntitle: T\nlanguage: ko\n---\n1. 설명하시오. {type=essay}\n\n- 끝 -\n\n수고하셨습니다. 다음 시간에 봅시다.\n",
       "---\ntitle: T\nlanguage: ko\n---\n1. 설명하시오. {type=essay}\n\n- 끝 -\n"),
    _e("QB156", "A question that is one row of a two-column matching table ('7) ____ Mitosis⇥B. Cell division') with no other row beside it: alone it would show one description and ask for another's letter.",
       "the question", "write the table's other rows under it (each item '8) ____ term⇥C. definition'), or write one matching question: {type=matching} and a row '- term -> description' per term",
       "---\ntitle: T\n---\n1) ____ Mitosis\tA. Division that makes gametes\nAnswer: B\n",
       "---\ntitle: T\n---\n1. Match each term with its description. {type=matching}\n\n- Mitosis -> Division that makes two identical cells\n- Meiosis -> Division that makes gametes\n"),
    _w("QB157", "A multiple-response question whose own option scores let a response ticking every option earn full marks (its wrong options score 0 % or more, as an imported Moodle question whose wrong answers are worth 0 % has them): the QTI 2.1 package and Moodle grade it so (Canvas by its own rule).",
       "the first wrong option that scores 0 % or more", "give each wrong option a negative score ({score=-50}), or leave out the wrong options' {score=...} for the default; ignore=QB157 on the question keeps the scores",
       FRONT + "1. Which are prime? {#primes}\n\nA) 2 {score=50}\nB) 3 {score=50}\nC) 4 {score=0}\n\nAnswer: A, B\n",
       FRONT + "1. Which are prime? {#primes}\n\nA) 2 {score=50}\nB) 3 {score=50}\nC) 4 {score=-50}\n\nAnswer: A, B\n"),
    _e("QB158", "A calculated question whose variable's placeholder stands inside a formula (${a}x + {b} = 0$) while a formula of the same question also has the variable's name as a symbol ($a$): a QTI 2.1 player puts the value in place of both (the variable is a mathVariable there). Only when a QTI 2.1 package is built.",
       "the formula with the symbol", "rename the variable (a to a1: its placeholders, the answer and the variables block), or move the placeholder out of the formula",
       "---\ntitle: T\n---\n\n1. Solve ${a}x + {b} = 0$, where $a$ is not zero. {#lin type=calculated decimals=2}\n\n```variables\na = 1..9\nb = 1..9\n```\n\nAnswer: -b / a ± 0.01\n",
       "---\ntitle: T\n---\n\n1. Solve ${a1}x + {b} = 0$, where $a$ is not zero. {#lin type=calculated decimals=2}\n\n```variables\na1 = 1..9\nb = 1..9\n```\n\nAnswer: -b / a1 ± 0.01\n"),
    _e("QB160", "A media file that is absolute, outside the source's folder, a link out of it, missing, not a file or too large.",
       "the reference", "put media next to the source (or below it) and refer to it by a relative path",
       FRONT + "1. What is shown? ![a chart](missing.png) {#chart type=essay}\n", FRONT + "1. What is shown? ![a chart](pic.png) {#chart type=essay}\n"),
    _w("QB165", "An image without alt text.", "the image", "describe the image for students who cannot see it: ![description](path)",
       FRONT + "1. What is shown? ![](pic.png) {#chart type=essay}\n", FRONT + "1. What is shown? ![a bar chart](pic.png) {#chart type=essay}\n"),
    _w("QB171", "An answer that is a number (or a number with a tolerance) makes a question without options an essay, with the number as its model answer.",
       "the answer", "add {type=numerical} to grade the number, or {type=essay} to keep the essay",
       FRONT + "1. What is 1/6 to four places? {#sixth}\n\nAnswer: 0.1667 ± 0.005\n",
       FRONT + "1. What is 1/6 to four places? {#sixth type=numerical}\n\nAnswer: 0.1667 ± 0.005\n"),
    _e("QB172", "An answer that means true or false in another language than the quiz's ('Richtig' in an English quiz) on a question without options or type=.",
       "the answer", "add {type=true_false}, set the quiz's 'language:', or write 'Answer: true' or 'Answer: false'",
       FRONT + "1. Is Python interpreted? {#interp}\n\nAnswer: Richtig\n", FRONT + "1. Is Python interpreted? {#interp}\n\nAnswer: true\n"),
    _e("QB173", "An answer that names an option (a letter, a marker such as ③, the text of a listed item, or a number naming a part the text marks ①, ②, …) in a question without options.",
       "the answer", "write each option at the left margin as 'A) text' or '① text' and the answer as its marker",
       FRONT + "1. Which keyword defines a function? {#def}\n\n- func\n- def\n\nAnswer: def\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB174", "A blank [[...]] in the text of a question whose type was guessed (not fill_in_blank): students would see the answer in the brackets.",
       "the blank", "add {type=fill_in_blank} to the question line",
       FRONT + "1. The [[Sun]] is a star. {#sun}\n\nAnswer: Sun\n", FRONT + "1. The [[Sun]] is a star. {#sun type=fill_in_blank}\n"),
    _e("QB175", "A question without options or type= whose answer is a word or a short phrase: a short answer or an essay's model answer, which the reader does not guess.",
       "the answer", "add {type=short_answer} (several accepted answers: 'Seoul, Seoul City') or {type=essay}; in a section titled '단답형' or 'Short answer' questions are short answers",
       FRONT + "1. Which city is the capital of Korea? {#cap}\n\nAnswer: Seoul\n",
       FRONT + "1. Which city is the capital of Korea? {#cap type=short_answer}\n\nAnswer: Seoul, Seoul City\n"),
    _e("QB176", "Blanks as exams print them, '(    )', '____' or '( ㉠ )', whose answer does not say which blank each word fills.",
       "the answer", "write the answers in the blanks, '[[answer]]', with {type=fill_in_blank}; name blanks ㉠, ㉡ and answer '㉠ word, ㉡ word'",
       FRONT + "1. 조선의 건국자는 (    )이고 수도는 (    )이다. {#b}\n\n정답: 이성계, 한양\n",
       FRONT + "1. 조선의 건국자는 ( ㉠ )이고 수도는 ( ㉡ )이다. {#b}\n\n정답: ㉠ 이성계, ㉡ 한양\n"),
    _e("QB177", "Matching rows ('(가) 김소월 ･ ･ ㉠ 서시') or an ordering answer ('(가) → (나)') that cannot be read together with the question's items.",
       "the answer", "answer a matching question '정답: (가)-㉡, (나)-㉠' and an ordering question '정답: (나) → (가) → (다)', naming each item of the question once",
       FRONT + "1. 작가와 작품을 바르게 연결하시오. {#m}\n\n(가) 김소월 ･ ･ ㉠ 서시\n(나) 윤동주 ･ ･ ㉡ 진달래꽃\n\n정답: 김소월은 진달래꽃\n",
       FRONT + "1. 작가와 작품을 바르게 연결하시오. {#m}\n\n(가) 김소월 ･ ･ ㉠ 서시\n(나) 윤동주 ･ ･ ㉡ 진달래꽃\n\n정답: (가)-㉡, (나)-㉠\n"),
    _e("QB178", "A shared passage ('[1~2] 다음 글을 읽고 ...') not followed by the questions it names, or a note ('※ ...') followed by no question.",
       "the passage or note", "number the questions after the passage as its range says, or change the range",
       FRONT + "[1~2] 다음 글을 읽고 물음에 답하시오.\n\n세종은 훈민정음을 만들었다.\n\n1. 세종은 훈민정음을 만들었다. {#a}\n\n정답: O\n",
       FRONT + "[1~2] 다음 글을 읽고 물음에 답하시오.\n\n세종은 훈민정음을 만들었다.\n\n1. 세종은 훈민정음을 만들었다. {#a}\n\n정답: O\n\n"
       "2. 훈민정음은 고려 때 만들어졌다. {#b}\n\n정답: X\n"),
    _e("QB179", "A question whose options are marked in two styles ('A)' and '②').", "the first option of the second style",
       "mark every option of a question one way: 'A) B) C)', '① ② ③' or '가) 나) 다)'",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA) func\n② def\n\nAnswer: A\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB180", "Lines that look like options written with a marker the reader does not take ('A: text', 'A - text', '[A] text', '❶ text'): reported once, and read as options.",
       "the first such line", "write options as 'A) text', 'A. text', '(A) text', '① text', '(1) text', '가) text', 'ㄱ. text' or 'ア) text'",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA: func\nB: def\n\nAnswer: B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB181", "A label of another language than the quiz's ('正解:' in a quiz without 'language: ja'): read as that label, and reported.",
       "the label", "add 'language: ..' to the front matter (the message names it), or write the label in English",
       FRONT + "1. Which keyword defines a function? {#def}\n\nA) func\nB) def\n\n正解: B\n",
       "---\ntitle: T\nlanguage: ja\n---\n1. Which keyword defines a function? {#def}\n\nA) func\nB) def\n\n正解: B\n"),
    _e("QB182", "An answer that names one option twice ('Answer: A, B, B').", "the answer", "name each correct option once",
       FRONT + _CHOICE + "Answer: B, B\n", FRONT + _CHOICE + "Answer: B\n"),
    _e("QB183", "'{score=50}' or another attribute at the end of a short answer's or an essay's answer line, where it would be part of the answer.",
       "the attributes", "put a score in the label, 'Answer (50%): ...', and other attributes on the question line; write '\\{' to keep braces",
       FRONT + "1. Which function converts a string to an integer? {#i type=short_answer}\n\nAnswer: int()\nAnswer: int {score=50}\n",
       FRONT + "1. Which function converts a string to an integer? {#i type=short_answer}\n\nAnswer: int()\nAnswer (50%): int\n"),
    _e("QB184", "Points written in the question text ('(3점)', '(3 points)') that differ from its points=.", "the points in the text",
       "keep one of the two: the points in the text or the points= attribute",
       FRONT + "1. Is 7 a prime number? (3 points) {#seven points=2}\n\nAnswer: true\n",
       FRONT + "1. Is 7 a prime number? (3 points) {#seven}\n\nAnswer: true\n"),
    _e("QB185", "A marking scheme ('채점 기준:', 'Marking scheme:') on a question graders do not mark: only essays and file uploads have one.",
       "the label", "put it under an essay's model answer, or write it as 'Explanation:' to show it to students after they answer",
       FRONT + "1. Is 7 a prime number? {#seven}\n\nAnswer: true\nMarking scheme: one point for the answer\n",
       FRONT + "1. Why is 7 a prime number? {#seven type=essay}\n\nAnswer: It has no divisors but 1 and itself.\nMarking scheme: one point for the answer\n"),
    _w("QB186", "A quiz without 'id:' whose file name is not in Latin letters ('한국사.md'): its id is made from the name, romanised ('hangugsa'), or a hash of it.",
       "line 1", "add the 'id: ...' the message names to the quiz, to keep the id when the file is renamed",
       FRONT + _CHOICE + "Answer: B\n", "---\ntitle: T\nid: hangugsa\n---\n" + _CHOICE + "Answer: B\n", file="한국사"),
    _e("QB187", "An answer key entry ('[정답]' or 'Answer key' then '1. ②  2. ①', '정답 1.② 2.④', '1.③⇥2.⑤', or untitled, one entry a line: '1. 2', '2. 4') that does not fit the questions: a number the paper does not have (or numbers twice, outside the key's section), an answer that contradicts the one written under the question, an untitled key's answer that names none of its question's options ('6. 7' for options '1)' to '5)'), an answer label inside the key ('정답: ②' under '1. ①'), which answers no numbered question, or a part of a key in parts ('## 单选题答案：' then '1. A') that names no section of the paper or several, or whose entry its section does not have.",
       "the key's entry", "number the key as the questions are numbered (a key after a section answers that section's questions, a key's part the section it names), and keep one answer per question",
       "---\ntitle: T\nlanguage: ko\n---\n1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n[정답]\n1. ②  2. ①\n",
       "---\ntitle: T\nlanguage: ko\n---\n1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n[정답]\n1. ②\n"),
    _e("QB188", "A heading numbered as a question ('## 1. …', or only its number, '## 19', over a text that does not ask) over lines numbered '1)', '2)', … of which some ask a question (end in '?') and some do not: they could be the options of the question the heading is, or the questions of a section it titles.",
       "the heading's text", "for one question, write its options without question marks (or mark them 'A) …'); for a section, end each of its questions with its question mark and give it its options or answer",
       FRONT + "## 1. Choose the right answer\n\n1) Which word is a noun?\n2) house\n3) quickly\n",
       FRONT + "## 1. Which word is a noun?\n\n1) house\n2) quickly\n3) green\n\nAnswer: 1\n"),
    _e("QB189", "A heading that is only a question's number holds a number in parentheses after it ('## Q3 (6)', '## Q2 (各1計5)') that the paper does not say is points: only points with their unit ('(6点)', '(6 points)'), or bare numbers under a legend above the first question ('丸かっこ内の数字は配点です', 'Numbers in parentheses are points'), are read as the question's points.",
       "what the parentheses hold", "write the points with their unit, '(6点)' or '(6 points)', or say above the first question that the numbers in parentheses are the points; parts worth points each ('各1') are questions of their own",
       "---\ntitle: T\nlanguage: ja\n---\n## Q3 (6)\n\n1000を16進ダンプした表示はどれか？\n\n1. 8e30\n2. e803\n\n答え：2\n",
       "---\ntitle: T\nlanguage: ja\n---\n丸かっこ内の数字は配点です。\n\n## Q3 (6)\n\n1000を16進ダンプした表示はどれか？\n\n1. 8e30\n2. e803\n\n答え：2\n"),
    _e("QB190", "A heading that is only a question's number ('## Q2') over a list of statements '1.', '2.', … each ending in its truth mark ('… である。○', '… ×', '… T'): true/false statements with their answers, which no option may show. The question is left out.",
       "the truth mark of the first statement", "write each statement as a true/false question of its own, its answer on the line under it ('答え：○', 'Answer: X') and its points after its text ('(1点)')",
       "---\ntitle: T\nlanguage: ja\n---\n## Q2\n\n正しい記述には○を、誤った記述には×をつけなさい。\n\n1. アセンブルは可逆変換である。○\n2. CPythonはコンパイル型言語である。×\n",
       "---\ntitle: T\nlanguage: ja\n---\n1. アセンブルは可逆変換である。(1点)\n答え：○\n\n2. CPythonはコンパイル型言語である。(1点)\n答え：×\n"),
    _e("QB192", "An item of a two-column matching table ('7) ____ Mitosis⇥A. …') whose letter neither the answer key nor a line under it gives.",
       "the item", "add the item's entry to the answer key ('8. B'), or 'Answer: B' under its row",
       "---\ntitle: T\nlanguage: en\n---\nPart II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four cells\n8) ____ Meiosis\tB. Division that makes two identical cells\n\nAnswer Key\n7. B\n", "---\ntitle: T\nlanguage: en\n---\nPart II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four cells\n8) ____ Meiosis\tB. Division that makes two identical cells\n\nAnswer Key\n7. B\n8. A\n"),
    _e("QB193", "The answer of an item of a two-column matching table names a letter that none of the table's definitions has.",
       "the answer (the key's entry, or the line under the item)", "give the letter of one of the table's definitions, or add the definition missing from its second column",
       "---\ntitle: T\nlanguage: en\n---\nPart II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four cells\n8) ____ Meiosis\tB. Division that makes two identical cells\n\nAnswer Key\n7. B\n8. C\n", "---\ntitle: T\nlanguage: en\n---\nPart II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four cells\n8) ____ Meiosis\tB. Division that makes two identical cells\n\nAnswer Key\n7. B\n8. A\n"),
    _e("QB194", "A line inside a two-column matching table that is neither an item ('8) ____ term⇥C. definition') nor a definition on a row of its own ('⇥D. definition').",
       "the line", "start a definition with its letter after a tab; move other text above the table or below its last row",
       "---\ntitle: T\nlanguage: en\n---\nPart II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four cells\n\tsee the figure\n8) ____ Meiosis\tB. Division that makes two identical cells\n\nAnswer Key\n7. B\n8. A\n",
       "---\ntitle: T\nlanguage: en\n---\nPart II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four cells\n8) ____ Meiosis\tB. Division that makes two identical cells\n\nAnswer Key\n7. B\n8. A\n"),
    _e("QB195", "Two definitions of a two-column matching table have the same letter, so an answer naming it cannot be told.",
       "the second definition", "give each definition its own letter, in order (A, B, C, ...)",
       "---\ntitle: T\nlanguage: en\n---\nPart II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four cells\n8) ____ Meiosis\tA. Division that makes two identical cells\n\nAnswer Key\n7. B\n8. A\n",
       "---\ntitle: T\nlanguage: en\n---\nPart II. Matching (2 pts each)\n\n7) ____ Mitosis\tA. Division that makes four cells\n8) ____ Meiosis\tB. Division that makes two identical cells\n\nAnswer Key\n7. B\n8. A\n"),
    _e("QB196", "A numbered task ('Aufgabe 2', 'Exercice 2', 'Task 2') followed by numbered lines of which only the last has an answer: a heading over questions, or one question whose options or parts they are, cannot be told.",
       "the task's line", "for a heading, give each numbered question its own answer; for one question, mark its options 'A) …' or write its parts in its text",
       "---\ntitle: T\nlanguage: de\n---\nAufgabe 3\nWelche Zahl ist gerade?\n1) 3\n2) 4\nAntwort: 2\n",
       "---\ntitle: T\nlanguage: de\n---\nAufgabe 3\nWelche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n"),
    _e("QB197", "A heading states its section's points ('Aufgabe 2 (4 Punkte)', 'Part II (10 points)') and its questions add up to another number: points the reader did not find made a question worth 1.",
       "the points in the heading", "write each question's points as the paper does ('(2 Punkte)', {points=2}) or a rule for each ('(je 2 Punkte)') in the heading",
       "---\ntitle: T\nlanguage: de\n---\nAufgabe 2 (4 Punkte)\n\n2.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n2.2 Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n",
       "---\ntitle: T\nlanguage: de\n---\nAufgabe 2 (je 2 Punkte)\n\n2.1 Welche Zahl ist gerade?\nA) 3\nB) 4\nAntwort: B\n\n2.2 Welche Zahl ist prim?\nA) 7\nB) 8\nAntwort: A\n"),
    # -- QB2xx: checking the values ---------------------------------------------------------------
    _e("QB201", "A value the model refuses: out of range, of the wrong form, or against a rule (scores that do not add up to 100 %, no correct choice, select larger than the section, a text blank with options, a quiz setting misspelt or out of range, ...).",
       "the value, or the question or section that breaks the rule", "the hint of each message says what to change",
       FRONT + "1. Which keyword defines a function? {#def points=-1}\n\nA) func\nB) def\n\nAnswer: B\n",
       FRONT + "1. Which keyword defines a function? {#def points=1}\n\nA) func\nB) def\n\nAnswer: B\n"),
    _e("QB202", "Two sources have the same quiz id.", "the second source's id",
       "give one of them another 'id:'; both would write the same files",
       "source/a.md and source/b.md both with 'id: basics'", "source/b.md with 'id: basics-2'", syntax="text"),
    _e("QB203", "An unknown key in a YAML source.", "the key", "rename it to the key it meant (the message suggests the nearest), or remove it",
       "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - type: single_choice\n        id: q\n        stem: Capital of France?\n"
       "        choice:\n          - {id: A, text: Paris, correct: true}\n          - {id: B, text: London}\n",
       "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - type: single_choice\n        id: q\n        stem: Capital of France?\n"
       "        choices:\n          - {id: A, text: Paris, correct: true}\n          - {id: B, text: London}\n", syntax="yaml"),
    _e("QB204", "A required field is missing or empty, such as a question's 'type' or 'stem'.", "the mapping that lacks it, or the empty value",
       "add the field where the message says",
       "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - {id: q, stem: Why}\n",
       "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - {type: essay, id: q, stem: Why}\n", syntax="yaml"),
    _e("QB205", "A value of the wrong kind: text, a number, true/false, a list or a mapping was expected.", "the value",
       "write the kind of value the message names (the hint shows how)",
       "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - type: essay\n        id: q\n        stem: Why?\n        feedback: Good.\n",
       "title: T\nsections:\n  - id: s\n    title: S\n    questions:\n      - type: essay\n        id: q\n        stem: Why?\n        feedback:\n          general: Good.\n",
       syntax="yaml"),
    _e("QB206", "A question's ignore= (ignore: in YAML) names a code qti-builder does not report, or an error's: only warnings and losses can be accepted.",
       "the ignore attribute", "name the codes of warnings or losses, such as QB601; errors must be fixed",
       FRONT + "1. Put the steps in order. {#steps type=ordering ignore=QB999}\n\n- Write the file\n- Run it\n",
       FRONT + "1. Put the steps in order. {#steps type=ordering ignore=QB601}\n\n- Write the file\n- Run it\n"),
    _e("QB210", "A formula (an answer, a derived value, a condition, a {=...} in a text) that cannot be read.",
       "the place in the formula", "write numbers, variables, + - * / ^, parentheses and the functions listed in docs/source-format.md#formulas",
       FRONT + _CALC + "d = 20..200\nt = 1..4\n```\n\nAnswer: d // t ± 1%\n",
       FRONT + _CALC + "d = 20..200\nt = 1..4\n```\n\nAnswer: d / t ± 1%\n"),
    _e("QB211", "A formula uses a name that is no variable of the question.", "the name",
       "define the variable, or correct the name (the message suggests the nearest)",
       FRONT + _CALC + "d = 20..200\nt = 1..4\n```\n\nAnswer: d / time ± 1%\n",
       FRONT + _CALC + "d = 20..200\nt = 1..4\n```\n\nAnswer: d / t ± 1%\n"),
    _e("QB212", "A formula cannot be computed for a set of values: division by zero, a square root or logarithm of a negative number, a value that is not finite, a derived value that depends on itself.",
       "the formula", "add a condition that leaves such values out, or change the ranges",
       FRONT + _CALC + "d = 20..200\nt = 0..4\n```\n\nAnswer: d / t ± 1%\n",
       FRONT + _CALC + "d = 20..200\nt = 1..4\n```\n\nAnswer: d / t ± 1%\n"),
    _e("QB213", "A condition that no set of values meets (or a listed set that does not meet it).", "the condition",
       "widen the ranges, or correct the condition or the set",
       FRONT + _CALC + "d = 20..200\nt = 1..4\nd > 500\n```\n\nAnswer: d / t ± 1%\n",
       FRONT + _CALC + "d = 20..200\nt = 1..4\nd > 50\n```\n\nAnswer: d / t ± 1%\n"),
    _e("QB214", "The correct answer, shown with its decimals or significant figures, lies outside its own tolerance: a student who types the answer shown would be marked wrong.",
       "the answer", "give a larger tolerance, or show the answer with more decimals {decimals=N} or figures {figures=N}",
       FRONT + _CALC + "d = 20..200\nt = 1..4 decimals 1\n```\n\nAnswer: d / t ± 0.0001\n",
       FRONT + _CALC + "d = 20..200\nt = 1..4 decimals 1\n```\n\nAnswer: d / t ± 0.01\n"),
    _e("QB215", "In a calculated choice question, a wrong option shows the same text as the correct one for some set.",
       "the option", "change the option's formula, or add a condition that leaves such values out",
       FRONT + "1. What is {a} + {b}? {#sum type=calculated_choice}\n\n```variables\na = 1..9\nb = 1..9\n```\n\nA) {=a + b:0}\nB) {=b + a:0}\n\nAnswer: A\n",
       FRONT + "1. What is {a} + {b}? {#sum type=calculated_choice}\n\n```variables\na = 1..9\nb = 1..9\n```\n\nA) {=a + b:0}\nB) {=a + b + 1:0}\n\nAnswer: A\n"),
    _w("QB216", "Fewer different sets of values exist (or meet the conditions) than the question asks for.", "the question's sets",
       "ask for as many sets as the message says, or widen the ranges",
       FRONT + "1. What is {a} + 1? {#inc type=calculated sets=20}\n\n```variables\na = 1..5\n```\n\nAnswer: a + 1\n",
       FRONT + "1. What is {a} + 1? {#inc type=calculated sets=5}\n\n```variables\na = 1..5\n```\n\nAnswer: a + 1\n"),
    # -- QB3xx: writing the outputs ---------------------------------------------------------------
    _e("QB217", "A calculated question without its ```variables block.", "the question",
       "write ```variables after the question text, one variable a line (d = 20..200), and ``` to close it",
       FRONT + "1. What is {a} + {b}? {#sum type=calculated}\n\nAnswer: a + b\n",
       FRONT + "1. What is {a} + {b}? {#sum type=calculated}\n\n```variables\na = 1..9\nb = 1..9\n```\n\nAnswer: a + b\n"),
    _e("QB218", "A line of a ```variables block that cannot be read: a variable without values, a step or decimals that is not a number, listed sets of the wrong shape.",
       "the line", "write d = 20..200 (step 5, decimals 1), n = 2, 3, 5, v = d / t, or (d, t) = (45, 1.5), (60, 2)",
       FRONT + _CALC + "d = 20..200 step five\nt = 1..4\n```\n\nAnswer: d / t ± 1%\n",
       FRONT + _CALC + "d = 20..200 step 5\nt = 1..4\n```\n\nAnswer: d / t ± 1%\n"),
    _e("QB219", "The paper states its total ('총점 42', '100点満点', '满分100分', 'Total: 50 points', or 'total:' in the front matter) and its questions add up to another: points the reader did not find make a question worth 1.",
       "the stated total", "write each question's points as the paper does ('(3점)', '(3 points)', {points=3}) or a section's rule ('(각 3점)'), or correct the stated total; 'qti-builder check --outline' lists each question's points",
       FRONT + "Total: 4 points\n\n" + _CHOICE + "Answer: B\n", FRONT + "Total: 4 points\n\n" + _CHOICE.replace("{#def}", "{#def points=4}") + "Answer: B\n"),
    # -- QB23x: project settings and reports ---------------------------------------------------------
    _e("QB230", "The project's settings file (qti-builder.toml, or pyproject.toml with [tool.qti-builder]) cannot be read: it is not TOML, or not UTF-8.",
       "the place in the settings file", "fix the TOML there (a string in quotes, a list in [ ], one setting per line)",
       'formats = ["moodle",', 'formats = ["moodle"]', syntax="text"),
    _e("QB231", "A report file (--report-file, --report FORMAT=FILE) cannot be written; the packages were written all the same.",
       "none", "give the report a file in a folder you may write to (missing folders are made)",
       "--report json=/read-only/report.json", "--report json=dist/report.json", syntax="text"),
    _e("QB232", "No quiz source in the folder given (or in source/): a build of nothing is a mistake, not a success.",
       "none", "name the sources or their folder; quiz sources end in .md, .markdown, .yaml or .yml",
       "qti-builder build quizzes/ (a folder of .txt files)", "qti-builder build quizzes/ (a folder of .md files)", syntax="text"),
    _e("QB233", "A setting of the project's settings file that qti-builder does not know, or a value its command-line flag would refuse.",
       "the setting, or its item", "spell it as the docs do (qti-builder docs ci#project-settings); each takes what its flag takes",
       'formats = ["moodle", "pdf"]', 'formats = ["moodle", "qti21"]', syntax="text"),
    _e("QB234", "build --only names a question that no quiz has; nothing is written, as the packages would not hold what was asked for.",
       "none", "give question ids as the sources write them ({#id}), or quiz-id/question-id",
       "qti-builder build --only W3-Q9 (no such question)", "qti-builder build --only W3-Q1", syntax="text"),
    _w("QB235", "diff: a question added or removed has no {#id} of its own; its id is made from its text, so a reworded question shows as removed and added, and importing it makes a new question in the LMS.",
       "the source", "give every question an id of its own: '1. What is ...? {#my-id}'",
       "1. What does len() return?", "1. What does len() return? {#len}", syntax="text"),
    _e("QB237", "Two sections, of one quiz or of two quizzes of a build, would give their Moodle categories one ID number (a section's moodle_idnumber, the '<quiz id>.<section id>' the build makes of another, or a quiz's category's: its id or its moodle_idnumber): category ID numbers are unique in a course, and Moodle refuses the whole file that repeats one.",
       "the section's moodle_idnumber, or its heading", "give one of them another moodle_idnumber, or leave it out (the build then writes '<quiz id>.<section id>')",
       "---\nid: BIO-W3\ntitle: Week 3\n---\n\n# Cells {#cells moodle_idnumber=CELLS}\n\n" + _CHOICE + "Answer: B\n\n"
       "# Tissues {#tissues moodle_idnumber=CELLS}\n\n" + _CHOICE.replace("{#def}", "{#def2}") + "Answer: B\n",
       "---\nid: BIO-W3\ntitle: Week 3\n---\n\n# Cells {#cells moodle_idnumber=CELLS}\n\n" + _CHOICE + "Answer: B\n\n"
       "# Tissues {#tissues}\n\n" + _CHOICE.replace("{#def}", "{#def2}") + "Answer: B\n"),
    _e("QB238", "Two questions of one Moodle category (a section; sections of one title side by side are one category in Moodle XML) would have one Moodle ID number (a question's moodle_idnumber, or the id of another, which the build writes as its ID number): Moodle keeps question ID numbers unique in a category, and its import drops the repeat's without a word.",
       "the question's moodle_idnumber, or its line", "give one of them another moodle_idnumber, or leave it out (the build then writes the question's id)",
       "---\nid: BIO-W3\ntitle: Week 3\n---\n\n1. Is a cell alive? {#q1 moodle_idnumber=\"W3 Q1\"}\n\nAnswer: true\n\n"
       "2. Is DNA a helix? {#q2 moodle_idnumber=\"W3 Q1\"}\n\nAnswer: true\n",
       "---\nid: BIO-W3\ntitle: Week 3\n---\n\n1. Is a cell alive? {#q1 moodle_idnumber=\"W3 Q1\"}\n\nAnswer: true\n\n"
       "2. Is DNA a helix? {#q2 moodle_idnumber=\"W3 Q2\"}\n\nAnswer: true\n"),
    _e("QB301", "A question type a writer cannot write (none of the built-in writers reports it today).", "the question",
       "leave that target out with --format, or change the question's type", "a writer without a template for a type",
       "every writer has one", syntax="text"),
    _e("QB302", "A template override has a syntax error.", "the template's line", "fix the template (see --templates)",
       "{% if x %} without {% endif %} in a --templates override", "the template with its {% endif %}", syntax="text"),
    _e("QB303", "A template is missing.", "the quiz or question being written", "check the --templates folder",
       "an override that extends a template name that does not exist", "the right name (builtin/<path>)", syntax="text"),
    _e("QB304", "A template fails while rendering.", "the template's line", "fix the template (see --templates)",
       "{{ question.no_such_field.x }} in an override", "a field the model has", syntax="text"),
    _e("QB305", "An overriding quiz template (moodle/quiz.xml.j2, canvas/assessment.xml.j2, qti21/imsmanifest.xml.j2) does not write the line <!-- question: N --> once per question.",
       "the quiz", "keep the loop over the questions of the built-in template, with its <!-- question: N --> line",
       "an override of moodle/quiz.xml.j2 without the loop", "the override with the loop", syntax="text"),
    _e("QB306", "With the setting qti_variants, a calculated question's fixed variant would be named like another question or section of the quiz (question 'speed' and its variants 'speed.v1', 'speed.v2', ...).",
       "the calculated question", "give the other question or section another id, or leave out the setting qti_variants (--qti-variants 0)",
       "---\ntitle: T\nsettings:\n  qti_variants: 2\n---\n" + _CALC + "d = 20..200 step 5\nt = 1..4\n```\n\nAnswer: d / t ± 1%\n\n"
       "2. A faster car? {#speed.v2}\n\nA) yes\nB) no\n\nAnswer: A\n",
       "---\ntitle: T\nsettings:\n  qti_variants: 2\n---\n" + _CALC + "d = 20..200 step 5\nt = 1..4\n```\n\nAnswer: d / t ± 1%\n\n"
       "2. A faster car? {#faster}\n\nA) yes\nB) no\n\nAnswer: A\n"),
    _e("QB321", "Moodle cannot store a score: it is not one of Moodle's grade options.", "the question",
       "give scores from Moodle's grade options, or leave Moodle out with --format qti21",
       FRONT + "1. Which are immutable? {#imm}\n\nA) tuple {score=35}\nB) str {score=65}\nC) list\n\nAnswer: A, B\n",
       FRONT + "1. Which are immutable? {#imm}\n\nA) tuple {score=40}\nB) str {score=60}\nC) list\n\nAnswer: A, B\n"),
    _e("QB322", "Moodle cannot take a blank: an empty answer or option, or a drop-down with a single choice (the model refuses both first).",
       "the question", "fix the blank's answers and options", "a blank the model refuses first (QB142, QB201)",
       "a blank with text and a wrong option", syntax="text"),
    _w("QB323", "A fill-in-the-blank question will be worth a different number of points in Moodle (whole-number blank weights).",
       "the question", "give the question a whole multiple of its number of blanks as points",
       FRONT + "1. The [[Sun]] is a [[star]]. {#sun type=fill_in_blank points=3}\n",
       FRONT + "1. The [[Sun]] is a [[star]]. {#sun type=fill_in_blank points=2}\n"),
    _w("QB324", "Moodle can never show a short-answer question's incorrect feedback: its answer '*' accepts every response.",
       "the question", "remove the '*' answer, or move the text to the '*' answer's own feedback",
       FRONT + "1. Name a star. {#star type=short_answer}\n\nAnswer: Sun\nAnswer (50%): *\nIncorrect feedback: The Sun is one.\n",
       FRONT + "1. Name a star. {#star type=short_answer}\n\nAnswer: Sun\nIncorrect feedback: The Sun is one.\n"),
    _e("QB325", "Moodle would refuse a formula of a calculated question, and with it the whole file: text in braces starting with '=' that is no placeholder of the question ({=a:b}), which Moodle reads as a formula. Reported where a Moodle output (Moodle XML, the quiz backup) is built.",
       "the formula (in the question text, a feedback or an option)", "write a computed value as a placeholder of the question's variables, {=a * b}, or reword the text",
       FRONT + "1. What is {a} + {b}? ({=a:b} in the book) {#sum type=calculated}\n\n```variables\na = 1..9\nb = 1..9\n```\n\nAnswer: a + b\n",
       FRONT + "1. What is {a} + {b}? ({=a / b} in the book) {#sum type=calculated}\n\n```variables\na = 1..9\nb = 1..9\n```\n\nAnswer: a + b\n"),
    _e("QB365", "A fill-in-the-blank blank's points, [[answer]]{points=...}, are not a number (a reading error, numbered with the blank-points rules).",
       "the blank's points", "write the blank's points as a number right after it: [[answer]]{points=2}",
       FRONT + "1. Paris is the [[capital]]{points=two} of [[France]]{points=1}. {#cap type=fill_in_blank}\n",
       FRONT + "1. Paris is the [[capital]]{points=2} of [[France]]{points=1}. {#cap type=fill_in_blank}\n"),
    # -- QB4xx: validating the outputs --------------------------------------------------------------
    _e("QB401", "A generated document fails its schema or an import rule (a bug in qti-builder or in a template override), or the schema folder does not match the pinned official schemas.",
       "the source's question, with the place in the generated file", "report it with the source, or fix the --templates override",
       "a template override that writes an element the schema does not allow", "the override without it", syntax="text"),
    _e("QB402", "The official schemas could not be downloaded.", "none", "connect to the internet once, or point --schemas at a copy",
       "a first build offline, without --schemas", "QTI_BUILDER_SCHEMAS=path/to/schemas", syntax="text"),
    _e("QB403", "A schema imports another schema that is not pinned.", "none", "use the pinned official schemas",
       "a changed schema folder", "the official schemas", syntax="text"),
    # -- QB5xx: files ------------------------------------------------------------------------------
    _e("QB501", "An output file cannot be written (permissions, disk full); the output folder is left as it was.", "the output file",
       "free disk space, or choose an --out folder you may write to", "--out /read-only", "--out dist", syntax="text"),
    # -- QB6xx: LMS profiles ---------------------------------------------------------------------
    _w("QB601", "Something the LMS loses or changes when it imports the question: build counts it as a loss of the Canvas package, or of Moodle XML for a multiple-response scoring rule (check --profile canvas or --profile moodle lists each as a warning).", "the question",
       "see 'qti-builder docs question-types' for what the LMS does with each type",
       FRONT + "1. Put the steps in order. {#steps type=ordering}\n\n- Write the file\n- Run it\n",
       FRONT + "1. Python has a `def` keyword. {#def}\n\nAnswer: true\n",
       profile="canvas"),
    _w("QB602", "A quiz setting the output has no place for (Moodle XML holds none; a QTI 2.1 package no shuffle_answers, one_question_at_a_time, grading_method or quiz_type; Canvas no grading_method: first, nor a lock on a page of several questions): build counts it as a loss of that output.",
       "the setting in the front matter", "set it in the LMS after importing, or accept it with --ignore QB602",
       "a quiz with 'settings: time_limit: 30' built for Moodle", "the time limit set on the Moodle quiz", syntax="text"),
    _w("QB603", "A section that draws questions at random, in an output that cannot draw (Moodle XML): every question of the section is imported; build counts it as a loss.",
       "the section's select", "add a random question drawing from the section's category to the Moodle quiz, or accept it with --ignore QB603",
       "a section {#pool select=2} built for Moodle", "a random question in the Moodle quiz", syntax="text"),
    # -- QB7xx: importing ----------------------------------------------------------------------------
    _e("QB700", "An input that cannot be read, is too large, or whose format cannot be told.", "the input",
       "give --format, or check the file", "qti-builder import notes.txt", "qti-builder import quiz.xml --format moodle", syntax="text"),
    _e("QB701", "XML that is not well-formed (or past libxml2's size and depth limits).", "the XML's line",
       "export the file again from its LMS", "a truncated Moodle XML file", "the complete export", syntax="text"),
    _e("QB702", "XML with entity declarations: refused.", "the input", "export the file again without a DOCTYPE",
       "<!DOCTYPE quiz [<!ENTITY x ...>]>", "the XML without a DOCTYPE", syntax="text"),
    _e("QB703", "A package refused: zip slip, symlink, encryption, too many entries, too large, a zip bomb.", "the input",
       "export the package again from its LMS", "a zip with an entry ../../etc/passwd", "the LMS's own export", syntax="text"),
    _e("QB704", "An input in which no question could be read.", "the input", "check that it is a quiz export",
       "an empty Moodle XML <quiz/>", "an export with questions", syntax="text"),
    _e("QB705", "A quiz page's answer key that cannot be applied to the questions read (a pasted exam paper's key is the exam reader's, QB187): an entry for a question the page does not have, a question it leaves unanswered while it answers the others, an option the question does not have. Nothing is written: a key that does not fit means the questions were not read as printed.",
       "the key's entry, or the question it leaves out", "number the key as the questions are numbered, and check that each question and option starts its line",
       "a quiz page of 5 questions whose key at the end says '6. ③'", "the key with an entry for each question, '1.② 2.① 3.④ 4.⑤ 5.③'", syntax="text"),
    _e("QB706", "A quiz page's question whose answer contradicts what was read of it (an answer naming an option of a question without options), or whose type cannot be told (a word without a section that says short answer or essay, blanks or rows the answer does not fit): never an essay in silence.",
       "the answer", "write the options each at the start of its line, put short answers under a section titled '단답형' or 'Short answer', or label an essay's answer '모범답안:' or 'Model answer:'",
       "'1. 조선의 수도는?' answered '한양' outside any section", "the question under 'Ⅱ. 단답형'", syntax="text"),
    _w("QB710", "A question type or interaction that cannot be imported: skipped.", "the question", "write that question by hand",
       "a Moodle 'stack' plugin question", "a built-in type", syntax="text"),
    _w("QB711", "A setting or part of a question that the source cannot hold: lost.", "the question",
       "check the imported question, and set what it needs by hand", "a Moodle question with hints", "the question without them", syntax="text"),
    _w("QB712", "Rich text kept as raw HTML, or HTML the sanitiser removes.", "the question",
       "check the text in the preview", "HTML with a <script>", "the HTML without it", syntax="text"),
    _w("QB713", "A question the model cannot hold (no correct answer, ...): skipped.", "the question",
       "fix it in the LMS and export again, or write it by hand", "a multiple-choice question with no correct answer",
       "the question with its answer", syntax="text"),
    _w("QB714", "A media file or an item that is referred to but missing, or that a loose input names outside its folder (a missing image is a named placeholder, media/missing-<name>.svg; a missing recording or linked file is kept as a link), or not valid base64.", "the question",
       "export the quiz again with its files", "an export without its images", "the export with them", syntax="text"),
    _w("QB715", "Text that the system it comes from reads otherwise than it looks (GIFT's {true}, an Aiken line '0'): imported as that system reads it.",
       "the text", "check the imported question; change the input if the system's reading is not what was meant",
       "::Q:: Is it? {true} in a GIFT file (GIFT reads {true} as the answer true)", "::Q:: Is it? {T}", syntax="text"),
    _w("QB716", "A quiz page that says one thing two ways (an answer key that disagrees with the question's answer, a key entry given twice, radio buttons with two answers, a passage whose questions do not all follow it): read one way, and said which.",
       "the line of the second answer", "correct the answer that is wrong, or number the key as the questions are numbered",
       "a quiz page whose question 2 says 'Answer: B' and whose answer key says '2. C'", "the page with one answer for question 2", syntax="text"),
    _w("QB717", "Entries of a zip that are unsafe to read: an absolute path, a symbolic link or an encrypted entry is skipped and named; a path that climbs out ('../x') is read as the file it names inside the package, a copy of a file the package holds left alone; the rest is read.",
       "the input", "check that nothing the quiz needs was skipped; export the package again if it was",
       "an R/exams export that repeats every file under ../", "the export without those copies", syntax="text"),
    _e("QB720", "A source that already exists (use --force), or two inputs with one quiz id.", "the output source",
       "pass --force to replace it, or import into another --out folder", "importing twice into source/", "--force", syntax="text"),
    _e("QB721", "An imported quiz that would be written as a source the readers refuse (past a reader's limit, such as a source's size): nothing is written.",
       "the input", "import the input in parts (a category or section each), or raise the limit the message names",
       "a Moodle bank whose source would be larger than a source may be", "the bank exported in parts", syntax="text"),
    _e("QB722", "A quiz page's line after a question that is shaped like an exam paper's structure (a points rule such as '（每题4分，共24分）', an answer key's title without entries, a heading form read nowhere there): never read as that question's answer or explanation. A pasted exam paper is the exam reader's (QB154).",
       "the line", "write it as a section heading ('Ⅱ. 단답형', 'Part II. Short answer', '四、简答题（每题5分）') before the section's first question, or join it to the line above if it is the question's text",
       "a quiz page whose line after '答案：√' is '（每题4分，共24分。）'", "the rule in the heading of its section, '二、判断题（每题4分，共24分。）'", syntax="text"),
    _e("QB723", "A quiz page's text after its closing mark ('- 끝 -', '- End -', '以上'), which ends the questions: it belongs to no question. A pasted exam paper is the exam reader's (QB155).",
       "the text", "move it above the closing mark, into the question it belongs to, or delete it",
       "'- 끝 -' followed by '수고하셨습니다 여러분'", "the paper ending with '- 끝 -' (an answer key may follow it)", syntax="text"),
    _e("QB725", "import --id names the quiz of one input, and the inputs hold several quizzes.", "the second quiz's input",
       "import each input on its own with its --id, or leave --id out",
       "qti-builder import week3.xml week4.xml --id bio101", "qti-builder import week3.xml --id bio101-week3", syntax="text"),
    _w("QB730", "An Aiken file in a dialect Moodle's own Aiken import refuses, read as its author meant it: options without ')' or '.' ('A text'), an answer letter in lower case ('ANSWER: b'), the qformat_aikenadv plug-in's forms (options '1)', 'NUMBERING:', its answer keywords such as 'תשובה:' and answers given as numbers or Hebrew letters), short heading lines ending in their number before a question ('CAP. II') read as the title of a section. Said once per form, at its first line.",
       "the form's first line", "check the imported questions; for Moodle's own Aiken import, write options 'A) ...', 'ANSWER: B' in capitals, one line per question",
       "an Aiken bank whose options read 'A sei libri' and whose answers read 'ANSWER: a'", "options 'A) sei libri' and 'ANSWER: A'", syntax="text"),
    _w("QB731", "A question bank of a Canvas course export (or a Blackboard pool) that no quiz of the package draws from: imported as a quiz of its own, named (it was left out).",
       "the bank", "leave its source out of the build if the course does not need it, or draw from it in a quiz's section (select)",
       "a course export whose 'Chapter 2' bank no quiz uses", "a quiz whose section draws from that bank", syntax="text"),
)

CODES: dict[str, Code] = {c.code: c for c in CODES_LIST}


def lookup(name: str) -> Code | None:
    """A code by name, in any case, with or without the 'QB': 'qb142', '142'."""
    key = name.strip().upper()
    key = key if key.startswith("QB") else f"QB{key}"
    return CODES.get(key)


def nearest(name: str) -> list[str]:
    """Known codes close to a misspelled one, for "did you mean"."""
    key = name.strip().upper()
    key = key if key.startswith("QB") else f"QB{key}"
    return difflib.get_close_matches(key, list(CODES), n=1, cutoff=0.6)


def explain(code: Code) -> str:
    """The documentation of one code, as ``qti-builder explain`` prints it."""
    lines = [
        f"{code.code} ({code.severity}): {code.summary}",
        "",
        f"Reported at: {code.location}.",
        f"Fix: {code.hint}.",
    ]
    if code.mistake:
        if code.syntax == "text":
            lines += ["", f"Example: {code.mistake}.", f"Fixed: {code.fix}."]
        else:
            name = f"{code.file}.{code.syntax}"
            lines += ["", f"Example ({name}):", "", *_indent(code.mistake), "", "Fixed:", "", *_indent(code.fix)]
    lines += ["", "More: qti-builder docs source-format#every-code"]
    return "\n".join(lines)


def _indent(text: str) -> list[str]:
    return ["    " + line if line else "" for line in text.rstrip("\n").split("\n")]


def markdown_table() -> str:
    """The table of every code in docs/source-format.md#every-code."""
    rows = ["| Code | Problem | Reported at | Fix |", "|---|---|---|---|"]
    for c in CODES_LIST:
        name = f"{c.code} (W)" if c.is_warning else c.code
        rows.append(f"| {name} | {_cell(c.summary)} | {_cell(c.location)} | {_cell(c.hint)} |")
    return "\n".join(rows)


def _cell(text: str) -> str:
    """Text as it reads, in a Markdown table cell: backslashes, pipes and emphasis marks escaped,
    ``<`` as an entity (``<!-- question: N -->`` would be an HTML comment)."""
    for char in "\\|*_":
        text = text.replace(char, "\\" + char)
    return text.replace("<", "&lt;")
