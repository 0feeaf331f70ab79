"""Moodle XML (question bank export) -> one quiz; its categories become sections.

Read the way Moodle 4.5's importer reads it (question/format/xml/format.php), and forgiving the
way real exports are messy: values padded with whitespace, CDATA or escaped HTML, CRLF line ends,
an element given twice (the first counts, with a warning), a bare ``<question>`` without
``<quiz>``, Moodle 1.9's ``<image>``/``<image_base64>``. One reader per question type, in
:data:`TYPES`; a type that is not there (``gapfill``, ``ddwtos``, ``calculated``...) is reported at
its line and skipped.

What Moodle XML does not hold is reported per question as "lost" (QB711), compared with the values
our own Moodle writer writes, so importing our own output is quiet.
"""

from __future__ import annotations

import base64
import binascii
import html
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote

from lxml import etree

from ...content import plain_text
from ...diagnostics import DiagnosticSink, SourceSpan
from ...model.questions import BLANK_MARKER, QuestionBase, TextOnlyItem, TrueFalseQuestion
from ...writers.moodle import ORDERING_OPTIONS, PENALTIES, PENALTY
from ..base import (INVALID, LOST, UNSUPPORTED, ImportedQuiz, QuizBuilder, choice_ids, guess_language, markdown_from_html,
                   one_line, same_title, sanitise_id, set_choice_scores)
from ..markup import plain_to_markdown
from ..safety import parse_xml, read_input

Data = dict[str, Any]


def sniff(path: Path, head: bytes) -> bool:
    return re.search(rb"<(quiz|question)[\s>]", head) is not None and b"imsqti" not in head


def import_moodle(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    raw = read_input(path, display, sink)
    tree = parse_xml(raw, display, sink) if raw is not None else None
    if tree is None:
        return []
    root = tree.getroot()
    if root.tag == "question":  # a bare question, as some tools export one
        questions = [root]
    elif root.tag == "quiz":
        questions = [q for q in root if q.tag == "question"]
    else:
        sink.error("QB700", f"not Moodle XML: the root element is <{root.tag}>, not <quiz>", SourceSpan(display, root.sourceline or 1))
        return []
    quiz = _MoodleFile(path, display, sink, questions).read()
    return [quiz] if quiz else []


class _MoodleFile:
    def __init__(self, path: Path, display: str, sink: DiagnosticSink, questions: list[etree._Element]) -> None:
        self.path, self.display, self.sink = path, display, sink
        self.elements = questions
        self.builder = QuizBuilder(display, sink)
        self.texts: list[str] = []

    def span(self, element: etree._Element) -> SourceSpan:
        return SourceSpan(self.display, element.sourceline or 1, 1)

    # -- categories ----------------------------------------------------------------------------

    def read(self) -> ImportedQuiz | None:
        declared, used = self._categories()
        root_path = _common_prefix(list(declared) + used)
        root_info = declared.get(root_path, {})
        quiz_id = root_info.get("idnumber")
        title = root_path[-1] if root_path else self.path.stem
        sections: dict[tuple[str, ...], Data] = {}
        current: tuple[str, ...] = root_path
        infos = declared

        def section_for(path: tuple[str, ...]) -> Data:
            if path in sections:
                return sections[path]
            below = path[len(root_path):]
            parent = section_for(path[:-1]) if len(below) > 1 else None
            info = infos.get(path, {})
            preferred = _strip_prefix(info.get("idnumber"), quiz_id)
            sections[path] = self.builder.section(path[-1] if below else title, parent, preferred,
                                                  description=info.get("description"))
            return sections[path]

        for element in self.elements:
            kind = (element.get("type") or "").strip().lower()
            if kind == "category":
                current = self._category_path(element) or current
                continue
            entry = TYPES.get(kind)
            name = one_line(self._text(element, "name")) or f"question on line {element.sourceline}"
            if entry is None:
                self.builder.warn(UNSUPPORTED, f"question '{name}' has the type '{kind or '(none)'}', which cannot be imported; skipped",
                                  self.span(element), hint=f"importable types: {', '.join(sorted(TYPES))}")
                continue
            data = self._question(element, entry, name, quiz_id)
            if data is not None:
                self.builder.add(section_for(current if len(current) >= len(root_path) else root_path), data,
                                 self.span(element), name, _strip_prefix(self._value(element, "idnumber"), quiz_id))
        language = guess_language(self.texts)
        self.builder.warn(LOST, f"Moodle XML does not record the quiz's language; '{language}' was taken from its text",
                          SourceSpan(self.display), hint="change 'language:' in the source if that is wrong")
        quiz = self.builder.build(quiz_id, title, language, root_info.get("description"))
        return ImportedQuiz(quiz, self.builder.media.files, self.display) if quiz else None

    def _categories(self) -> tuple[dict[tuple[str, ...], Data], list[tuple[str, ...]]]:
        """Declared categories (path -> idnumber, description) and the paths questions are in."""
        declared: dict[tuple[str, ...], Data] = {}
        used: list[tuple[str, ...]] = []
        current: tuple[str, ...] = ()
        for element in self.elements:
            if (element.get("type") or "").strip().lower() == "category":
                current = self._category_path(element)
                info: Data = {"idnumber": self._value(element, "idnumber") or None}
                info_element = self._child(element, "info")
                if info_element is not None:
                    info["description"] = self._rich(info_element, self.span(element), "category description") or None
                declared.setdefault(current, info)
            else:
                used.append(current)
        return declared, used

    def _category_path(self, element: etree._Element) -> tuple[str, ...]:
        text = self._text(element, "category")
        if not text:
            return ()
        # As Moodle splits it (question_bank::split_category_path): a lone '/' separates
        # categories, '//' is a slash inside a name.
        parts = [p.strip().replace("//", "/") for p in re.split(r"(?<!/)/(?!/)", text.strip())]
        parts = [p for p in parts if p]
        if parts and re.fullmatch(r"\$\w+\$", parts[0]):
            parts = parts[1:]
        if parts and parts[0] == "top":
            parts = parts[1:]
        return tuple(parts)

    # -- one question --------------------------------------------------------------------------

    def _question(self, element: etree._Element, entry: tuple[str, Reader], name: str, quiz_id: str | None) -> Data | None:
        kind, reader = entry
        span = self.span(element)
        stem = self._rich(self._child(element, "questiontext"), span, f"question '{name}'") if kind != "fill_in_blank" else ""
        stem = self._legacy_image(element, stem)
        data: Data = {"type": kind, "stem": stem, "feedback": {}, "tags": self._tags(element)}
        general = self._rich(self._child(element, "generalfeedback"), span, f"the general feedback of '{name}'")
        if general:
            data["feedback"]["general"] = general
        grade = _number(self._value(element, "defaultgrade"))
        if grade is not None:
            data["points"] = grade
        context = _Context(self, element, span, name, data)
        if reader(context) is False:
            return None
        if context.lost:
            self.builder.warn(LOST, f"question '{name}': not kept: {'; '.join(context.lost)}", span)
        derived = plain_text(BLANK_MARKER.sub("___", data["stem"]), 100) if data.get("stem") else ""
        if name and not same_title(name, derived) and not name.startswith("question on line"):
            data["title"] = name
        penalty = self._value(element, "penalty")
        expected = PENALTIES.get(_MODEL_CLASSES[kind], PENALTY) if kind in _MODEL_CLASSES else PENALTY
        if penalty and _number(penalty) is not None and abs(float(penalty) - float(expected)) > 1e-6 and kind != "text_only":
            self.builder.warn(LOST, f"question '{name}': the penalty per wrong try ({penalty}) is a Moodle quiz setting the source does not hold", span)
        return data

    # -- elements ------------------------------------------------------------------------------

    def _child(self, element: etree._Element, tag: str) -> etree._Element | None:
        found = element.findall(tag)
        if len(found) > 1:
            self.builder.warn(LOST, f"<{tag}> appears {len(found)} times in this question; the first is used", self.span(found[1]))
        return found[0] if found else None

    def _value(self, element: etree._Element, tag: str) -> str:
        child = self._child(element, tag)
        return (child.text or "").strip() if child is not None else ""

    def _text(self, element: etree._Element, tag: str) -> str:
        """``<tag><text>…</text></tag>``, or the older ``<tag>…</tag>``."""
        child = self._child(element, tag)
        if child is None:
            return ""
        inner = child.find("text")
        return (inner.text if inner is not None else child.text) or ""

    def _tags(self, element: etree._Element) -> list[str]:
        tags = []
        for tag in element.findall("tags/tag"):
            text = tag.findtext("text") if tag.find("text") is not None else tag.text
            if text and text.strip():
                tags.append(" ".join(text.split()))
        return list(dict.fromkeys(tags))

    def _rich(self, element: etree._Element | None, span: SourceSpan, where: str) -> str:
        """A text element (``format`` + ``<text>`` + ``<file>``s) as Markdown."""
        if element is None:
            return ""
        text_element = element.find("text")
        text = (text_element.text if text_element is not None else element.text) or ""
        text = text.strip()
        text = self._files(element, text, span)
        if not text:
            return ""
        self.texts.append(text)
        fmt = (element.get("format") or "html").strip().lower()
        return self.convert(text, fmt, span, where)

    def convert(self, text: str, fmt: str, span: SourceSpan, where: str) -> str:
        if fmt == "markdown":
            return text
        if fmt == "plain_text" or (fmt == "moodle_auto_format" and not re.search(r"<[A-Za-z/]", text)):
            return plain_to_markdown(html.unescape(text) if fmt == "moodle_auto_format" else text)
        return markdown_from_html(self.builder, text, span, where)

    def _files(self, element: etree._Element, text: str, span: SourceSpan) -> str:
        """Embedded ``<file>``s become media files; ``@@PLUGINFILE@@/name`` references point at them."""
        for file in element.findall("file"):
            name = (file.get("name") or "").strip()
            try:
                data = base64.b64decode((file.text or "").strip(), validate=False)
            except (binascii.Error, ValueError):
                self.builder.warn("QB714", f"embedded file '{name}' is not valid base64; skipped", self.span(file))
                continue
            if not name or not data:
                continue
            ref = self.builder.media.add(name, data)
            folder = (file.get("path") or "/").strip()
            for written in {quote(name), name, quote(folder.strip("/") + "/" + name) if folder.strip("/") else quote(name)}:
                text = text.replace(f"@@PLUGINFILE@@/{written}", ref)
        if "@@PLUGINFILE@@" in text:
            missing = sorted(set(unquote(m) for m in re.findall(r"@@PLUGINFILE@@/([^\"'\s<>)]+)", text)))
            self.builder.warn("QB714", f"file(s) {', '.join(missing)} are referenced but not embedded in the export", span,
                              hint="export again with the files, or add them next to the source and fix the references")
        return text

    def _legacy_image(self, element: etree._Element, stem: str) -> str:
        """Moodle 1.9: ``<image>`` names the question's image, ``<image_base64>`` holds it."""
        name = self._value(element, "image")
        encoded = self._value(element, "image_base64")
        if not name and not encoded:
            return stem
        if encoded:
            try:
                ref = self.builder.media.add(Path(name).name or "image.png", base64.b64decode(encoded))
            except (binascii.Error, ValueError):
                self.builder.warn("QB714", "<image_base64> is not valid base64; the image is skipped", self.span(element))
                return stem
        elif re.match(r"https?://", name):
            ref = name
        else:
            self.builder.warn("QB714", f"image '{name}' is referenced but not embedded (<image_base64>); skipped", self.span(element))
            return stem
        return (stem + "\n\n" if stem else "") + f"![]({ref})"


class _Context:
    """One question being read: its element, where it is, and the data built so far."""

    def __init__(self, file: _MoodleFile, element: etree._Element, span: SourceSpan, name: str, data: Data) -> None:
        self.file, self.element, self.span, self.name, self.data = file, element, span, name, data
        self.lost: list[str] = []

    def value(self, tag: str) -> str:
        return self.file._value(self.element, tag)

    def rich(self, tag: str, where: str, element: etree._Element | None = None) -> str:
        return self.file._rich(self.file._child(element if element is not None else self.element, tag), self.span,
                               f"{where} of '{self.name}'")

    def answers(self) -> list[etree._Element]:
        return self.element.findall("answer")

    def answer_text(self, answer: etree._Element, where: str) -> str:
        """An answer's own text: HTML for multichoice, plain for the others (format says)."""
        text = answer.find("text")
        raw = ((text.text if text is not None else answer.text) or "").strip()
        raw = self.file._files(answer, raw, self.span)
        fmt = (answer.get("format") or "moodle_auto_format").strip().lower()
        if fmt == "moodle_auto_format" and not re.search(r"<[A-Za-z/]", raw):
            return html.unescape(raw)
        return self.file.convert(raw, fmt, self.span, f"{where} of '{self.name}'")

    def combined_feedback(self) -> None:
        for tag, key in (("correctfeedback", "correct"), ("partiallycorrectfeedback", "partially_correct"),
                         ("incorrectfeedback", "incorrect")):
            text = self.rich(tag, tag.replace("feedback", " feedback"))
            if text:
                self.data["feedback"][key] = text

    def setting(self, tag: str, neutral: tuple[str, ...], what: str) -> None:
        """A Moodle setting the model has no field for: lost unless it has a neutral value."""
        value = self.value(tag)
        if value and value.lower() not in neutral:
            self.lost.append(f"{what} '{value}'")


Reader = Callable[[_Context], "bool | None"]


def _fraction(answer: etree._Element) -> float:
    value = _number(answer.get("fraction"))
    return value if value is not None else 0.0


def _number(text: str | None) -> float | None:
    try:
        return float((text or "").strip().replace(",", "."))
    except ValueError:
        return None


def _bool(text: str, default: bool) -> bool:
    text = text.strip().lower()
    return default if not text else text in ("1", "true", "yes")


# -- one reader per Moodle type -------------------------------------------------------------------


def _multichoice(c: _Context) -> bool | None:
    answers = c.answers()
    fractions = [_fraction(a) for a in answers]
    texts = [c.answer_text(a, f"answer {i + 1}") for i, a in enumerate(answers)]
    single = _bool(c.value("single"), True)
    ids = choice_ids(len(answers))
    choices = []
    for ident, answer, text, fraction in zip(ids, answers, texts, fractions):
        choice: Data = {"id": ident, "text": text, "correct": fraction > 0}
        feedback = c.rich("feedback", f"the feedback of answer {ident}", answer)
        if feedback:
            choice["feedback"] = feedback
        choices.append(choice)
    c.data["choices"] = choices
    c.data["shuffle"] = _bool(c.value("shuffleanswers"), True)
    c.combined_feedback()
    c.setting("answernumbering", ("abc", "abcd", "none", "ABCD".lower()), "answer numbering")
    if single:
        best = max(fractions, default=0)
        for choice, fraction in zip(choices, fractions):
            choice["correct"] = fraction == best and best > 0
        partial = [f"{choice['id']} ({fraction:g} %)" for choice, fraction in zip(choices, fractions) if 0 < fraction < best]
        if partial:
            c.lost.append("partial credit of answers " + ", ".join(partial) + " (single choice is all or nothing)")
        if sum(ch["correct"] for ch in choices) > 1:
            c.data["type"] = "multiple_response"
            c.lost.append("several answers worth full marks in a single-answer question: imported as multiple response")
        else:
            c.data["type"] = "single_choice"
        return None
    c.data["type"] = "multiple_response"
    set_choice_scores(c.data, fractions)
    return None


def _truefalse(c: _Context) -> bool | None:
    answer = None
    for element in c.answers():
        text = (element.findtext("text") or element.text or "").strip().lower()
        value = {"true": True, "false": False}.get(text)
        if value is None:
            continue
        feedback = c.rich("feedback", f"the feedback of '{text}'", element)
        if feedback:
            c.data[f"{text}_feedback"] = feedback
        if _fraction(element) > 0:
            answer = value
    if answer is None:
        c.file.builder.warn(INVALID, f"true/false question '{c.name}' has no answer worth marks; skipped", c.span)
        return False
    c.data["answer"] = answer
    return None


def _catch_all(c: _Context, answers: list[Data]) -> list[Data]:
    """Moodle's "any other answer" (``*`` worth 0) carries the incorrect feedback; it is no answer."""
    kept = []
    for answer in answers:
        if answer.get("_text") == "*" and answer["score"] == 0:
            if answer.get("feedback") and not c.data["feedback"].get("incorrect"):
                c.data["feedback"]["incorrect"] = answer["feedback"]
            continue
        kept.append(answer)
    for answer in kept:
        answer.pop("_text", None)
    return kept


def _shortanswer(c: _Context) -> bool | None:
    answers = []
    for element in c.answers():
        # Moodle keeps short answers as plain text whatever their format says (it matches on them).
        text = (element.findtext("text") or element.text or "").strip()
        entry: Data = {"text": one_line(text), "_text": one_line(text), "score": max(_fraction(element), 0)}
        feedback = c.rich("feedback", f"the feedback of answer '{text}'", element)
        if feedback:
            entry["feedback"] = feedback
        answers.append(entry)
    c.data["answers"] = _catch_all(c, answers)
    c.data["case_sensitive"] = _bool(c.value("usecase"), False)
    return None


def _numerical(c: _Context) -> bool | None:
    answers = []
    for element in c.answers():
        text = (element.findtext("text") or element.text or "").strip()
        fraction = max(_fraction(element), 0)
        feedback = c.rich("feedback", f"the feedback of answer '{text}'", element)
        if text == "*":
            answers.append({"_text": "*", "score": fraction, "feedback": feedback})
            continue
        value = _number(text)
        if value is None:
            c.lost.append(f"answer '{text}' (not a number)")
            continue
        tolerance = abs(_number(element.findtext("tolerance")) or 0.0)
        entry: Data = {"value": value, "tolerance": tolerance, "score": fraction}
        if feedback:
            entry["feedback"] = feedback
        answers.append(entry)
    c.data["answers"] = _catch_all(c, answers)
    units = c.element.findall("units/unit")
    base = [u for u in units if (_number(u.findtext("multiplier")) or 0) == 1]
    if base:
        c.data["unit"] = (base[0].findtext("unit_name") or "").strip() or None
    others = [(u.findtext("unit_name") or "").strip() for u in units if u not in base[:1]]
    if others:
        c.lost.append("the units " + ", ".join(others) + " (the source has one unit)")
    c.setting("unitgradingtype", ("0", ""), "unit grading")
    return None


def _essay(c: _Context) -> bool | None:
    fmt = c.value("responseformat").lower() or "editor"
    attachments = int(_number(c.value("attachments")) or 0)
    if attachments < 0:
        c.lost.append("unlimited attachments (at most 20 are kept)")
        attachments = 20
    model_answer = c.rich("graderinfo", "the grader information")
    if model_answer:
        c.data["model_answer"] = model_answer
    types = [t.strip() for t in re.split(r"[,;\s]+", c.value("filetypeslist")) if t.strip()]
    if fmt == "noinline":
        c.data["type"] = "file_upload"
        c.data["max_files"] = min(max(attachments, 1), 20)
        c.data["allowed_types"] = [t.lower() for t in types if re.fullmatch(r"\.[A-Za-z0-9]{1,10}", t)]
        groups = [t for t in types if not re.fullmatch(r"\.[A-Za-z0-9]{1,10}", t)]
        if groups:
            c.lost.append("file type groups " + ", ".join(groups) + " (the source lists extensions)")
        c.setting("attachmentsrequired", ("1", str(max(attachments, 1))), "attachments required")
        return None
    formats = {"editor": "editor", "editorfilepicker": "editor", "plain": "plain", "monospaced": "monospaced"}
    c.data["response_format"] = formats.get(fmt, "editor")
    if fmt not in formats:
        c.lost.append(f"response format '{fmt}'")
    elif fmt == "editorfilepicker":
        c.lost.append("files inside the answer editor (editorfilepicker)")
    lines = int(_number(c.value("responsefieldlines")) or 15)
    c.data["expected_lines"] = min(max(lines, 1), 200)
    for tag, key in (("minwordlimit", "min_words"), ("maxwordlimit", "max_words")):
        limit = int(_number(c.value(tag)) or 0)
        if limit > 0:
            c.data[key] = limit
    c.data["attachments"] = min(attachments, 20)
    if types and attachments:
        c.lost.append("the attachments' file types " + ", ".join(types))
    c.setting("responserequired", ("1", ""), "answer required")
    c.setting("attachmentsrequired", ("0", ""), "attachments required")
    template = c.rich("responsetemplate", "the response template")
    if template:
        c.lost.append("the response template")
    return None


def _matching(c: _Context) -> bool | None:
    pairs, distractors = [], []
    for sub in c.element.findall("subquestion"):
        prompt = c.file._rich(sub, c.span, f"a prompt of '{c.name}'")
        answer = one_line(sub.findtext("answer/text") or sub.findtext("answer") or "")
        if not answer:
            continue
        answer_md = plain_to_markdown(answer)
        if prompt:
            pairs.append({"prompt": prompt, "answer": answer_md})
        else:
            distractors.append(answer_md)
    c.data["pairs"] = pairs
    c.data["distractors"] = distractors
    c.data["shuffle"] = _bool(c.value("shuffleanswers"), True)
    c.combined_feedback()
    return None


def _ordering(c: _Context) -> bool | None:
    items = [c.answer_text(a, f"item {i + 1}") for i, a in enumerate(c.answers())]
    c.data["items"] = items
    c.combined_feedback()
    for tag, value in ORDERING_OPTIONS.items():
        c.setting(tag, (value.lower(), ""), tag)
    if c.value("selecttype") and c.value("selecttype").upper() != "ALL" and c.value("selectcount") not in ("", "0", str(len(items))):
        c.lost.append(f"showing {c.value('selectcount')} of the items")
    return None


def _description(c: _Context) -> bool | None:
    c.data["points"] = 0
    return None


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


def _cloze(c: _Context) -> bool | None:
    element = c.file._child(c.element, "questiontext")
    text = ((element.findtext("text") if element is not None else "") or "").strip()
    text = c.file._files(element, text, c.span) if element is not None else text
    c.file.texts.append(text)
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
        return _PLACEHOLDER.format(len(blanks))

    try:
        marked = EMBEDDED.sub(replace, text)
    except _Unsupported as exc:
        c.file.builder.warn(UNSUPPORTED, f"cloze question '{c.name}' has {exc}; skipped", c.span)
        return False
    fmt = (element.get("format") if element is not None else None) or "html"
    stem = c.file.convert(marked, fmt.lower(), c.span, f"question '{c.name}'")
    for index in range(1, len(blanks) + 1):
        stem = stem.replace(_PLACEHOLDER.format(index), f"[[b{index}]]")
    c.data["stem"] = stem
    c.data["blanks"] = blanks
    c.data["case_sensitive"] = True in sensitivity
    if len(sensitivity) > 1:
        c.lost.append("case sensitivity per blank (the source has one setting: case sensitive)")
    if weights:
        c.data["points"] = float(sum(weights))
        if len(set(weights)) > 1:
            c.lost.append(f"blank weights {', '.join(map(str, weights))} (the source shares points equally)")
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


def _strip_prefix(idnumber: str | None, quiz_id: str | None) -> str | None:
    """``<quiz id>.<id>`` (how our writer scopes Moodle idnumbers) -> ``<id>``."""
    if idnumber and quiz_id and idnumber.startswith(quiz_id + ".") and len(idnumber) > len(quiz_id) + 1:
        return idnumber[len(quiz_id) + 1:]
    return sanitise_id(idnumber) if idnumber else None


def _common_prefix(paths: list[tuple[str, ...]]) -> tuple[str, ...]:
    paths = [p for p in paths if p]
    if not paths:
        return ()
    prefix = paths[0]
    for path in paths[1:]:
        n = 0
        while n < min(len(prefix), len(path)) and prefix[n] == path[n]:
            n += 1
        prefix = prefix[:n]
    return prefix


#: Moodle type -> (model kind, reader). A reader fills in the data, or returns False to skip.
TYPES: dict[str, tuple[str, Reader]] = {
    "multichoice": ("single_choice", _multichoice),
    "truefalse": ("true_false", _truefalse),
    "shortanswer": ("short_answer", _shortanswer),
    "numerical": ("numerical", _numerical),
    "essay": ("essay", _essay),
    "matching": ("matching", _matching),
    "ordering": ("ordering", _ordering),
    "cloze": ("fill_in_blank", _cloze),
    "multianswer": ("fill_in_blank", _cloze),
    "description": ("text_only", _description),
}

#: Kinds whose penalty our writer sets apart from Moodle's default (writers.moodle.PENALTIES).
_MODEL_CLASSES: dict[str, type[QuestionBase]] = {"true_false": TrueFalseQuestion, "text_only": TextOnlyItem}
