"""What Moodle's plain-text question formats (GIFT, Aiken) share, as Moodle reads them
(question/format.php, qformat_default): the file's text, the grade options every answer fraction
must be one of, the name Moodle gives a question that has none, and its four text formats.
"""

from __future__ import annotations

import html
import re

from ..diagnostics import DiagnosticSink, SourceSpan
from ..writers.moodle import MOODLE_GRADES, moodle_fraction
from .base import LOST, QuizBuilder, markdown_from_html
from .markup import plain_to_markdown

#: The text formats of a GIFT ``[format]`` prefix (format_name_to_const); FORMAT_MOODLE is the default.
TEXT_FORMATS = ("moodle", "html", "plain", "markdown")

GRADE_HINT = ("Moodle's grade options are " + ", ".join(f"{g:.5f}".rstrip("0").rstrip(".") for g in MOODLE_GRADES[:-1])
              + " and 0 % and their negatives; Moodle refuses any other weight")


def decode(raw: bytes, display: str, sink: DiagnosticSink, refused_by: str | None = None) -> str:
    """The file's text with LF line ends and no BOM. A file that is not UTF-8 (most often
    Windows-1252) is read as Windows-1252, with a warning at the line of the first byte that is not
    UTF-8; ``refused_by`` names the Moodle import that refuses it (validate_is_utf8_file)."""
    raw = raw.removeprefix(b"\xef\xbb\xbf")
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        # Saved as "Unicode" by Windows' Notepad: UTF-16 with its byte-order mark, every
        # character two bytes; read as Windows-1252 it would be letters and NULs.
        refusal = f", which Moodle's {refused_by} import refuses" if refused_by else ""
        sink.warning(LOST, f"the file is UTF-16 (it starts with a byte-order mark){refusal}; it was read as UTF-16",
                     SourceSpan(display, 1), hint="save the file as UTF-8 to import it into Moodle as it is")
        text = raw[: len(raw) - len(raw) % 2].decode("utf-16", "replace")
        return text.replace("\r\n", "\n").replace("\r", "\n")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[: exc.start].count(b"\n") + 1
        refusal = f", which Moodle's {refused_by} import refuses" if refused_by else ""
        sink.warning(LOST, f"the file is not UTF-8{refusal}; it was read as Windows-1252",
                     SourceSpan(display, line), hint="check the accented letters in the source, and save the file as UTF-8")
        text = raw.decode("cp1252", "replace")
    return text.replace("\r\n", "\n").replace("\r", "\n")


def grade_problem(fraction: float) -> bool:
    """Is ``fraction`` one Moodle refuses (match_grade_options with 'error', its default)?"""
    return moodle_fraction(fraction * 100) is None


def default_name(text: str) -> str:
    """The name Moodle gives a question without one: create_default_question_name, i.e. the text
    shortened to 80 characters by shorten_text, then without tags (clean_param PARAM_TEXT)."""
    return " ".join(html.unescape(_strip_tags(shorten_text(text, 80))).split())


_SEGMENT = re.compile(r"(<.+?>)?([^<>]*)", re.S)
_ENTITY = re.compile(r"&[0-9a-z]{2,8};|&#[0-9]{1,7};|&#x[0-9a-f]{1,6};", re.I)


def shorten_text(text: str, ideal: int, ending: str = "...") -> str:
    """Moodle's shorten_text (lib/moodlelib.php) without its tag balancing, which the name's
    tag stripping makes moot: cut at a space or full stop before ``ideal`` characters."""
    if len(re.sub(r"<.*?>", "", text)) <= ideal:
        return text
    total, truncated = len(ending), ""
    for match in _SEGMENT.finditer(text):
        tag, part = match.group(1), match.group(2)
        truncated += tag or ""
        length = len(_ENTITY.sub(" ", part))
        if total + length > ideal:
            left, entities = ideal - total, 0
            for entity in _ENTITY.finditer(part):
                if entity.start() + 1 - entities > left:
                    break
                left -= 1
                entities += len(entity.group())
            cut = left + entities
            while cut > 0:
                char = part[cut:cut + 1]
                if char and char != "0":  # PHP: if ($char = mb_substr(...)), and "0" is false
                    if char in (".", " ") or len(char.encode()) > 2:
                        cut += 1
                        break
                cut -= 1
            if cut == 0 or cut > left + entities:
                cut = left + entities
            truncated += part[:cut]
            break
        truncated += part
        total += length
        if total >= ideal:
            break
    return truncated + ending


def _strip_tags(text: str) -> str:
    return re.sub(r"<[^\s>][^>]*>", "", text)


def to_markdown(builder: QuizBuilder, text: str, fmt: str, span: SourceSpan, where: str) -> str:
    """A text in one of Moodle's formats as the source's Markdown. FORMAT_MOODLE is HTML in which
    line breaks are kept (text_to_html); FORMAT_PLAIN shows as written; FORMAT_MARKDOWN is kept."""
    text = text.strip()
    if not text or fmt == "markdown" or (fmt in ("plain", "moodle") and _reads_as_itself(text)):
        return text
    if fmt == "plain":
        return plain_to_markdown(text)
    if fmt == "moodle":
        if not re.search(r"<[A-Za-z/!]", text):
            return plain_to_markdown(html.unescape(text))
        # text_to_html: returns next to tags are spaces, the others line breaks.
        text = re.sub(r">\s+<", "><", text)
        text = re.sub(r"\n<", " <", re.sub(r">\n", "> ", text)).replace("\n", "<br>\n")
    return markdown_from_html(builder, text, span, where)


#: Characters that can mean something in Markdown or HTML (markup.escaping), and a line break.
_MEANINGFUL = re.compile(r"[\\`*_\[\]<>~|$!#&\n]")


def plain_markdown(text: str) -> str:
    """Plain text as Markdown that shows it as written."""
    text = text.strip()
    return text if _reads_as_itself(text) else plain_to_markdown(text)


def _reads_as_itself(text: str) -> bool:
    """A line that is Markdown showing exactly its characters as they are: most answers and
    questions, which so skip the conversion and its check (a thousandth of a second each)."""
    return not _MEANINGFUL.search(text) and not re.match(r"[-+=]|\d+[.)]", text)
