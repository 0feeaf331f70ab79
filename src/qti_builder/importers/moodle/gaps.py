"""Questions whose answers are chosen or typed into gaps in the text: Moodle's "select missing
words" (``gapselect``) and "drag and drop into text" (``ddwtos``), and the Gapfill plugin
(``gapfill``). Each becomes a fill-in-the-blank question.

- ``gapselect`` and ``ddwtos`` (question/type/gapselect/questiontypebase.php): the text holds
  ``[[n]]``, where n numbers a choice (``<selectoption>``/``<dragbox>``, from 1); that choice is the
  gap's answer and its ``<group>`` the gap's drop-down: every choice of the group is an option.
  Before Moodle 2.1 the choices were ``<answer>``s with the group in the feedback (ddwtos: a PHP-
  serialised object). Each gap is worth an equal share, as in the model.
- ``gapfill`` (github.com/marcusgreen/moodle-qtype_gapfill): the gaps are the text between the
  delimiters (``[cat]``, or ``delimitchars``), ``|`` separating accepted answers; answers with
  fraction 0 are distractors. ``answerdisplay`` says whether students type (``gapfill``: text
  blanks) or choose from every answer and distractor (``dropdown``, ``dragdrop``). Its export
  writes some options twice (once per code path that exports them): the first is read, quietly.
"""

from __future__ import annotations

import html
import re

from ...plurals import plural
from ..base import INVALID
from .cloze import blank_stem, marker, question_text
from .context import Context, Data

#: A gap of select missing words / drag and drop into text: the number of its right choice.
PLACE = re.compile(r"\[\[(\d+)\]\]")
#: Characters that make a Gapfill answer a regular expression rather than a word (``.`` aside:
#: "etc." still matches itself).
REGEX_CHARACTERS = re.compile(r"[\\^$*+?()\[\]{}]")
#: Gapfill options with no place in the source: reported when they are on.
GAPFILL_OPTIONS = {"noduplicates": "no credit for the same answer in two gaps (noduplicates)",
                   "fixedgapsize": "gaps of one fixed size (fixedgapsize)",
                   "optionsaftertext": "the options listed after the text (optionsaftertext)",
                   "singleuse": "each option used once (singleuse)",
                   "letterhints": "letter hints (letterhints)"}


def _option(c: Context, tag: str) -> str:
    """A Gapfill option: the first of its copies (Gapfill's export repeats some of them)."""
    return (c.element.findtext(tag) or "").strip()


def _on(text: str) -> bool:
    """Moodle's trans_single: empty, 0 and false are off."""
    return text.strip().lower() not in ("", "0", "false", "no")


def _plain(c: Context, text: str, where: str) -> str:
    """A choice as the plain text a drop-down shows. A gapselect choice is plain text already (its
    drop-down shows it as written); a drag box is HTML: tags dropped (reported), entities decoded."""
    if c.kind != "ddwtos":
        return " ".join(text.split())
    if re.search(r"<[A-Za-z/]", text):
        c.lost.append(f"the formatting of {where} (drop-down options are plain text)")
        text = re.sub(r"<[^>]*>", "", text)
    return " ".join(html.unescape(text).split())


def _choices(c: Context, tag: str) -> list[tuple[str, str, bool]]:
    """The choices in order: (text, group, infinite)."""
    found = c.element.findall(tag)
    if found:
        return [((e.findtext("text") or "").strip(), (e.findtext("group") or "").strip() or "1", e.find("infinite") is not None)
                for e in found]
    choices = []
    for answer in c.answers():  # before Moodle 2.1: the group in the feedback (ddwtos: PHP-serialised)
        text = (answer.findtext("text") or answer.text or "").strip()
        feedback = (answer.findtext("feedback/text") or "").strip()
        group = re.search(r'draggroup";(?:s:\d+:"|i:)(\d+)', feedback)
        infinite = re.search(r'infinite";[bi]:1', feedback) is not None
        choices.append((text, group.group(1) if group else feedback if feedback.isdigit() else "1", infinite))
    return choices


def _select(c: Context, tag: str) -> bool | None:
    """A gapselect or ddwtos question: each ``[[n]]`` a drop-down of its choice's group."""
    element, text = question_text(c)
    choices = _choices(c, tag)
    texts = [_plain(c, t, f"choice {i} '{t}'") for i, (t, _, _) in enumerate(choices, 1)]
    groups: dict[str, list[str]] = {}
    for choice_text, (_, group, _) in zip(texts, choices):
        members = groups.setdefault(group, [])
        if choice_text and choice_text not in members:
            members.append(choice_text)
    blanks: list[Data] = []
    unknown: list[str] = []
    used_groups: list[str] = []

    def replace(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if not 1 <= number <= len(choices):
            unknown.append(match.group(0))
            return match.group(0)
        answer, group = texts[number - 1], choices[number - 1][1]
        used_groups.append(group)
        blanks.append({"id": f"b{len(blanks) + 1}", "kind": "dropdown", "answers": [answer],
                       "options": [t for t in groups[group] if t != answer]})
        return marker(len(blanks))

    marked = PLACE.sub(replace, text)
    if unknown:
        c.skip(INVALID, f"question '{c.name}' ({c.kind}) has the {'gaps' if len(unknown) > 1 else 'gap'} {', '.join(unknown)}, but only {plural(len(choices), 'choice')}; "
                        "skipped", hint="each [[n]] names the choice that is right there, counting from 1")
        return False
    if not blanks:
        c.skip(INVALID, f"question '{c.name}' ({c.kind}) has no gap [[1]] in its text; skipped")
        return False
    alone = [b for b in blanks if not b["options"]]
    if alone:
        c.skip(INVALID, f"question '{c.name}' ({c.kind}): the group of '{alone[0]['answers'][0]}' has no other choice, "
                        "and a drop-down needs a wrong one; skipped",
               hint="give the group another choice in Moodle, or put the choice in a group with others")
        return False
    c.data["stem"] = blank_stem(c, element, marked, len(blanks))
    c.data["blanks"] = blanks
    c.combined_feedback()
    if tag == "dragbox":
        once = [t for t, (_, g, infinite) in zip(texts, choices) if not infinite and used_groups.count(g) > 1]
        c.lost.append("dragging: the words become drop-down lists"
                      + (", where a word meant to be used once can be chosen in several gaps" if once else ""))
    if not _on(c.value("shuffleanswers") or "1"):
        c.lost.append("the fixed order of the choices (the drop-downs list them in an order of their own)")
    return None


def gapselect(c: Context) -> bool | None:
    return _select(c, "selectoption")


def ddwtos(c: Context) -> bool | None:
    return _select(c, "dragbox")


def gapfill(c: Context) -> bool | None:
    """A Gapfill question: ``[cat]`` gaps typed in, or chosen from drop-downs of every answer."""
    element, text = question_text(c)
    delimiters = _option(c, "delimitchars") or "[]"
    if len(delimiters) != 2:
        c.lost.append(f"the gap delimiters '{delimiters}' (read as [ ])")
        delimiters = "[]"
    gap = re.compile(re.escape(delimiters[0]) + "(.*?)" + re.escape(delimiters[1]), re.S)
    regex = not _on(_option(c, "disableregex"))
    gaps: list[list[str]] = []

    def replace(match: re.Match[str]) -> str:
        content = " ".join(html.unescape(re.sub(r"<[^>]*>", "", match.group(1))).split())
        alternatives = list(dict.fromkeys(a.strip() for a in content.split("|") if a.strip()))
        if content == "!!" or not alternatives:
            c.lost.append(f"the gap {match.group(0)}, to be left empty (removed from the text)")
            return ""
        for alternative in alternatives:
            if regex and REGEX_CHARACTERS.search(alternative):
                c.lost.append(f"the regular expression '{alternative}' (kept as the text it is written as)")
        gaps.append(alternatives)
        return marker(len(gaps))

    marked = gap.sub(replace, text)
    if not gaps:
        c.skip(INVALID, f"question '{c.name}' (gapfill) has no gap {delimiters[0]}…{delimiters[1]} in its text; skipped")
        return False
    display = (_option(c, "answerdisplay") or "gapfill").lower()
    blanks: list[Data] = []
    if display in ("dropdown", "dragdrop"):
        distractors = [" ".join(html.unescape((a.findtext("text") or "").strip()).split()) for a in c.answers()
                       if (a.get("fraction") or "0").strip() in ("0", "0.0", "0.0000000")]
        pool = list(dict.fromkeys([a for alternatives in gaps for a in alternatives] + [d for d in distractors if d]))
        for index, alternatives in enumerate(gaps, 1):
            blanks.append({"id": f"b{index}", "kind": "dropdown", "answers": alternatives,
                           "options": [p for p in pool if p not in alternatives]})
        if display == "dragdrop":
            c.lost.append("dragging: the words become drop-down lists")
    else:
        blanks = [{"id": f"b{index}", "kind": "text", "answers": alternatives} for index, alternatives in enumerate(gaps, 1)]
    c.data["stem"] = blank_stem(c, element, marked, len(blanks))
    c.data["blanks"] = blanks
    c.data["case_sensitive"] = _on(_option(c, "casesensitive"))
    c.combined_feedback()
    for tag, what in GAPFILL_OPTIONS.items():
        if _on(_option(c, tag)):
            c.lost.append(what)
    if _option(c, "itemsettings") not in ("", "[]", "{}"):
        c.lost.append("the feedback of each gap (itemsettings)")
    return None
