"""Readers of Moodle plug-in types that have an honest nearest form in the model, each with what it
loses (read as the plug-ins' own ``import_from_xml`` and ``export_to_xml`` write them):

- **wordselect** (Marcus Green's qtype_wordselect): a text whose words the student selects. The
  marked words are between the ``delimitchars`` (``[]`` by default): in its single-word mode
  every word of the text can be selected and the marked ones are right; in its multiword mode
  (any ``[[...]]`` in the text) the doubly marked are right and the singly marked wrong, and
  nothing else can be selected. Either way a ``multiple_response`` question over the words that
  can be selected, the text (without the marks) and its ``introduction`` the stem.
- **coderunner** (Richard Lobb's qtype_coderunner): a program graded by running test cases. An
  ``essay`` whose model answer (grader information) is the sample answer as code and the test
  cases (code, standard input, expected output), monospaced.

The STACK plug-in (Maxima-graded answers) has no such form: its questions are skipped, the
warning naming its inputs and their teacher's answers (:func:`stack_summary`).
"""

from __future__ import annotations

import html
import re

from lxml import etree

from ..base import INVALID, choice_ids
from ...plurals import plural
from ..markup import plain_to_markdown
from .context import Context

#: CodeRunner's question types (``coderunnertype``) -> the language of a Markdown code fence.
LANGUAGES = {"python3": "python", "python2": "python", "c_program": "c", "c_function": "c", "cpp_program": "cpp",
             "cpp_function": "cpp", "java_program": "java", "java_method": "java", "java_class": "java",
             "nodejs": "javascript", "octave_function": "octave", "php": "php", "sql": "sql", "pascal_program": "pascal"}


def wordselect(c: Context) -> bool | None:
    raw = c.file._text(c.element, "questiontext")
    delimiters = c.value("delimitchars") or "[]"
    left, right = re.escape(delimiters[0]), re.escape(delimiters[1:2] or delimiters[0])
    multiword = re.search(f"{left}{left}(.+?){right}{right}", raw) is not None
    marked = re.compile(f"{left}{left}(.+?){right}{right}|{left}(.+?){right}" if multiword else f"{left}(.+?){right}")
    words: dict[str, bool] = {}
    if multiword:
        for match in marked.finditer(raw):
            word = _plain(match.group(1) or match.group(2))
            if word:  # a mark around nothing but spaces or tags selects nothing
                words[word] = words.get(word, False) or match.group(1) is not None
    else:
        right_words = {_plain(m.group(1)) for m in marked.finditer(raw)}
        for token in re.split(r"\s+", _plain(marked.sub(lambda m: m.group(1), raw))):
            word = token.strip(".,;:!?\"'()")
            if word:
                words[word] = words.get(word, False) or word in right_words
    if not any(words.values()):
        c.skip(INVALID, f"question '{c.name}' (wordselect) marks no right word; skipped")
        return False
    fmt = (c.element.find("questiontext").get("format") or "html").strip().lower()  # type: ignore[union-attr]
    text = c.file.convert(marked.sub(lambda m: m.group(1) or (m.group(2) if multiword else ""), raw), fmt, c.span,
                          f"question '{c.name}'")
    introduction = c.rich("introduction", "the introduction")
    c.data["stem"] = "\n\n".join(p for p in (introduction, text) if p)
    c.data["choices"] = [{"id": ident, "text": plain_to_markdown(word), "correct": right}
                         for ident, (word, right) in zip(choice_ids(len(words)), words.items())]
    _storable_shares(c)
    c.data["shuffle"] = False
    c.combined_feedback()
    c.lost.append("selecting the words in the text (they are options under it)"
                  + ("" if multiword else "; a word that stands in the text twice is one option"))
    return None


def _storable_shares(c: Context) -> None:
    """Scores Moodle can store for a text with more right words than equal shares allow (eleven
    right words: 9.09 % each, which is none of Moodle's grade options): the two grade options around
    the share, as many of each as make 100 % (nine words worth 10 % and two worth 5 %, the first
    ones the larger), each wrong word taking the larger away; the change is named. A share no two
    grade options make (more than 20 right words) is left for the build to report (QB321)."""
    from ...writers.moodle import MOODLE_GRADES  # (only import needs it: build never loads the importers)

    right = [ch for ch in c.data["choices"] if ch["correct"]]
    share = 100 / len(right)
    if any(abs(share - g) <= 0.001 for g in MOODLE_GRADES):
        return
    higher = min(g for g in MOODLE_GRADES if g > share)
    lower = max(g for g in MOODLE_GRADES if g < share)
    larger = (100 - len(right) * lower) / (higher - lower) if lower > 0 else -1.0
    if lower <= 0 or abs(larger - round(larger)) > 1e-6:
        return
    for n, choice in enumerate(right):
        choice["score"] = higher if n < round(larger) else lower
    for choice in c.data["choices"]:
        if not choice["correct"]:
            choice["score"] = -higher
    c.lost.append(f"equal shares for its {len(right)} right words ({share:.4g} % each, which Moodle cannot store): "
                  f"the first {round(larger)} are worth {higher:g} %, the others {lower:g} %, and a wrong word takes {higher:g} % away")


def coderunner(c: Context) -> bool | None:
    kind = c.value("coderunnertype")
    language = LANGUAGES.get(kind.lower(), "")
    answer = c.element.find("answer")
    code = ""
    if answer is not None:
        inner = answer.find("text")
        code = ((inner.text if inner is not None else answer.text) or "").strip("\n")
    parts = []
    if code.strip():
        parts.append(f"Sample answer ({kind or 'CodeRunner'}):\n\n{_fence(code, language)}")
    cases = c.element.findall("testcases/testcase")
    for number, case in enumerate(cases, 1):
        rows = [(label, (case.findtext(f"{tag}/text") or case.findtext(tag) or "").strip("\n"))
                for tag, label in (("testcode", "Test"), ("stdin", "Standard input"), ("expected", "Expected output"))]
        shown = [f"{label}:\n\n{_fence(value, language if label == 'Test' else '')}" for label, value in rows if value.strip()]
        example = " (shown as an example)" if case.get("useasexample") == "1" else ""
        mark = case.get("mark")
        weight = f", mark {float(mark):g}" if mark and _is_number(mark) and float(mark) != 1 else ""
        parts.append(f"Test case {number}{example}{weight}:\n\n" + "\n\n".join(shown))
    c.data["type"] = "essay"
    c.data["response_format"] = "monospaced"
    if parts:
        c.data["model_answer"] = "\n\n".join(parts)
    lines = c.value("answerboxlines")
    if lines.isdigit() and 1 <= int(lines) <= 200:
        c.data["expected_lines"] = int(lines)
    c.lost.append(f"running the answer against its {plural(len(cases), 'test case')} (CodeRunner grades by them; the essay is graded by "
                  "hand: the sample answer and test cases are its grader information)")
    if c.value("answerpreload").strip():
        c.lost.append("the code preloaded into the answer box")
    return None


def stack_summary(element: etree._Element) -> str:
    """What a STACK question asks, for the warning that skips it: its inputs and teacher's answers."""
    inputs = [f"{(i.findtext('name') or '?').strip()} = {(i.findtext('tans') or '?').strip()}" for i in element.findall("input")]
    return f"its inputs and teacher's answers: {'; '.join(inputs)}" if inputs else "it declares no input"


def _plain(fragment: str) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]*>", " ", fragment)).split())


def _fence(code: str, language: str) -> str:
    ticks = "```"
    while ticks in code:
        ticks += "`"
    return f"{ticks}{language}\n{code}\n{ticks}"


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True
