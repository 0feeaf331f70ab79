"""Cloze questions (``cloze``, ``multianswer``): answers embedded in the question text
(``{1:SHORTANSWER:=Paris}``) become the blanks of a fill-in-the-blank question."""

from __future__ import annotations

import html
import re

from lxml import etree

from ..base import UNSUPPORTED
from .context import Context, Data

#: An embedded answer: {weight:TYPE:alternatives}; alternatives end at an unescaped } .
EMBEDDED = re.compile(r"\{(\d*):([A-Z_]+):((?:\\.|[^}\\])*)\}")
CLOZE_KINDS = {
    "SHORTANSWER": "text", "SA": "text", "MW": "text", "SHORTANSWER_C": "text_c", "SAC": "text_c", "MWC": "text_c",
    "NUMERICAL": "number", "NM": "number",
    "MULTICHOICE": "dropdown", "MC": "dropdown", "MULTICHOICE_S": "dropdown", "MCS": "dropdown",
    "MULTICHOICE_V": "radio", "MCV": "radio", "MULTICHOICE_H": "radio", "MCH": "radio",
    "MULTICHOICE_VS": "radio", "MCVS": "radio", "MULTICHOICE_HS": "radio", "MCHS": "radio",
}
_PLACEHOLDER = "\ue000{}\ue001"


def question_text(c: Context) -> tuple[etree._Element | None, str]:
    """The question text as written (HTML with the blanks' markup still in it), its files made media."""
    element = c.file._child(c.element, "questiontext")
    text = ((element.findtext("text") if element is not None else "") or "").strip()
    text = c.file._files(element, text, c.span) if element is not None else text
    c.file.texts.append(text)
    return element, text


def marker(index: int) -> str:
    """What stands for blank ``index`` (from 1) while the text is converted: no Markdown touches it."""
    return _PLACEHOLDER.format(index)


def blank_stem(c: Context, element: etree._Element | None, marked: str, count: int) -> str:
    """The stem of a question whose text holds a :func:`marker` for each blank: Markdown with ``[[b1]]``…"""
    fmt = ((element.get("format") if element is not None else None) or "html").lower()
    if fmt in ("html", "moodle_auto_format"):
        marked = _CODE.sub(_blanks_out_of_code, marked)
    stem = c.file.convert(marked, fmt, c.span, f"question '{c.name}'")
    for index in range(1, count + 1):
        stem = stem.replace(marker(index), f"[[b{index}]]")
    return stem


#: Inline code in HTML, and a blank's marker.
_CODE = re.compile(r"(<code\b[^>]*>)(.*?)</code>", re.S)
_MARKER = re.compile("(\ue000\\d+\ue001)")


def _blanks_out_of_code(match: re.Match[str]) -> str:
    """``<code>a[<blank>]</code>`` -> ``<code>a[</code><blank><code>]</code>``: a blank inside code
    cannot be a field (QB144), so the code is closed around it."""
    opening, inner = match.group(1), match.group(2)
    if not _MARKER.search(inner):
        return match.group(0)
    return "".join(part if _MARKER.fullmatch(part) or not part.strip() else f"{opening}{part}</code>"
                   for part in _MARKER.split(inner))


def cloze(c: Context) -> bool | None:
    element, text = question_text(c)
    blanks: list[Data] = []
    weights: list[int] = []
    sensitivity: set[bool] = set()

    def replace(match: re.Match[str]) -> str:
        kind = CLOZE_KINDS.get(match.group(2))
        if kind is None:
            raise _Unsupported(f"embedded answers of type {match.group(2)} (a fill-in-the-blank blank is text or a drop-down)")
        weights.append(int(match.group(1) or 1))
        alternatives = _cloze_alternatives(match.group(3))
        right = [a for a in alternatives if a[1] >= 100]
        if not right:
            raise _Unsupported(f"blank {len(blanks) + 1} has no answer worth full marks")
        partial = [a for a in alternatives if 0 < a[1] < 100]
        if partial:
            c.lost.append(f"partial credit in blank {len(blanks) + 1} ({', '.join(a[0] for a in partial)})")
        if any(a[2] for a in alternatives):
            c.lost.append(f"the feedback of blank {len(blanks) + 1}'s answers")
        blank_id = f"b{len(blanks) + 1}"
        if kind in ("text", "text_c", "number"):
            sensitivity.add(kind == "text_c")
            if kind == "number" and re.search(r":\s*[\d.]+\s*$", match.group(3)):
                c.lost.append(f"the tolerance of blank {len(blanks) + 1} (its number is matched as text)")
            answers = [re.sub(r":[\d.eE+-]+$", "", a[0]) if kind == "number" else a[0] for a in right]
            blank = {"id": blank_id, "kind": "text", "answers": [_unescape_star(a) for a in answers]}
        else:
            if kind == "radio":
                c.lost.append(f"blank {len(blanks) + 1} shown as radio buttons (a drop-down in the source)")
            if len(right) > 1:
                c.lost.append(f"blank {len(blanks) + 1}'s further correct options (the first is kept)")
            # A drop-down's choices are stored as HTML (the writer escapes them): decode once more.
            blank = {"id": blank_id, "kind": "dropdown", "answers": [html.unescape(right[0][0])],
                     "options": [html.unescape(a[0]) for a in alternatives if a is not right[0] and a[1] < 100]}
        blanks.append(blank)
        return marker(len(blanks))

    try:
        marked = EMBEDDED.sub(replace, text)
    except _Unsupported as exc:
        c.skip(UNSUPPORTED, f"cloze question '{c.name}' (multianswer) has {exc}; skipped")
        return False
    c.data["stem"] = blank_stem(c, element, marked, len(blanks))
    c.data["blanks"] = blanks
    c.data["case_sensitive"] = True in sensitivity
    if len(sensitivity) > 1:
        c.lost.append("case sensitivity per blank (the source has one setting: case sensitive)")
    if weights:
        c.data["points"] = float(sum(weights))
        if len(set(weights)) > 1:
            # Moodle gives each blank weight/sum of the mark: the blanks keep their worth. Equal
            # weights stay an equal share, as the source writes it by default.
            for blank, weight in zip(blanks, weights):
                blank["points"] = float(weight)
    return None


class _Unsupported(Exception):
    pass


def _cloze_alternatives(body: str) -> list[tuple[str, float, str]]:
    """``=right#feedback~%50%half~wrong`` -> (text, percent, feedback), unescaped as Moodle does."""
    out = []
    for part in re.split(r"(?<![\\&])~", body):
        grade = 0.0
        if part.startswith("="):
            grade, part = 100.0, part[1:]
        else:
            percent = re.match(r"%(-?\d+(?:\.\d+)?)%", part)
            if percent:
                grade, part = float(percent.group(1)), part[percent.end():]
        hash_mark = re.search(r"(?<![\\&])#", part)
        text, feedback = (part[:hash_mark.start()], part[hash_mark.end():]) if hash_mark else (part, "")
        text = html.unescape(text).replace("\\}", "}").replace("\\#", "#").strip()
        out.append((text, grade, html.unescape(feedback).strip()))
    return out


def _unescape_star(text: str) -> str:
    """A blank's answers are literal text in the model; Moodle escapes a star as ``\\*``."""
    return text.replace("\\*", "*")
