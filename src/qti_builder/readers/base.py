"""What every reader shares: decoding source bytes, and turning plain data into a validated Quiz.

A reader's job ends at plain data (dicts and lists shaped like the model) plus a map from each
data path to the place in the source it came from. :func:`validate_quiz` then runs the pydantic
model once and turns each validation error into a diagnostic at the right line and column, so the
Markdown and YAML readers locate model errors the same way.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from collections.abc import Callable
from pathlib import Path
from typing import Any

from anyascii import anyascii
from pydantic import ValidationError

from ..diagnostics import DiagnosticSink, SourceSpan
from ..model import IDENTIFIER_PATTERN, Quiz
from .kept_model import keep, validated_reusing
from .model_errors import explain, report_setting_error
from .source_map import KEY, Loc, SourceMap, last_line, structure_starts, suggest


__all__ = ["KEY", "Loc", "SourceMap", "ids_repeat", "read_text_with", "read_with", "suggest", "validate_quiz"]

#: A reader's own part: source text -> plain data shaped like the model (None after reporting).
Parse = Callable[[str, SourceMap, DiagnosticSink], "dict[str, Any] | None"]


def read_with(parse: Parse, path: Path, display: str, sink: DiagnosticSink) -> tuple[Quiz, SourceMap] | None:
    """What every reader does around its own parsing: decode the file, check the ids the model
    cannot locate, validate.

    An error while reading stops neither the checks nor validation: the questions in whose lines
    an error lies are left out, the rest is checked and validated all the same, so one run
    reports every independent mistake of a file. The quiz of the questions read is returned with
    ``source.partial`` set (read_quiz gives it only to callers that ask: the build checks it
    further and writes nothing of it); None when nothing could be read or validated."""
    errors_before = len(sink.errors)
    text = decode_source(path.read_bytes(), display, sink)
    if text is None:
        return None
    return read_text_with(parse, text, path.stem, display, sink, errors_before)


def read_text_with(parse: Parse, text: str, file_stem: str, display: str, sink: DiagnosticSink,
                   errors_before: int | None = None) -> tuple[Quiz, SourceMap] | None:
    """:func:`read_with` on text already decoded, as if read from a file named ``file_stem``: what
    ``import`` of a pasted exam paper runs, so that it reads the paper as ``build`` does. The
    errors after ``errors_before`` (default: those from now on) are the reading's: the decoding's
    (a character XML forbids) count as much as the parser's."""
    if errors_before is None:
        errors_before = len(sink.errors)
    source = SourceMap(display)
    data = parse(text, source, sink)
    if data is None:
        return None
    check_quiz_id(data, file_stem, source, sink)
    check_unique_ids(data, source, sink)
    errors = [d for d in sink.errors[errors_before:] if d.span is not None and d.span.path == display]
    if len(sink.errors) > errors_before:
        source.partial = True
        if not errors or not _leave_out_unread(data, source, text.split("\n"),
                                               {d.span.line for d in errors if d.span} | source.unread):
            return None
    before = len(sink.errors)
    quiz = validate_quiz(data, source, sink)
    if quiz is None and len(sink.errors) > before:
        # What the model refused lies in some questions: the others are still checked further.
        source.partial = True
        refused = {d.span.line for d in sink.errors[before:] if d.span is not None and d.span.path == display}
        if _leave_out_unread(data, source, text.split("\n"), refused):
            quiz = validate_quiz(data, source, DiagnosticSink())
    return (quiz, source) if quiz else None


def _leave_out_unread(data: dict[str, Any], source: SourceMap, lines: list[str], error_lines: set[int]) -> bool:
    """Leave out of ``data`` the questions an error lies in (what the reader made of them is not
    what the author meant), moving the source map's places of the others with them. False when
    no question is left."""
    starts = structure_starts(source)
    moves: dict[Loc, dict[int, int]] = {}
    kept_any = False

    def walk(sections: Any, prefix: Loc) -> None:
        nonlocal kept_any
        if not isinstance(sections, list):
            return
        for i, section in enumerate(sections):
            if not isinstance(section, dict):
                continue
            loc = prefix + (i,)
            questions = section.get("questions")
            if isinstance(questions, list):
                kept: list[Any] = []
                move: dict[int, int] = {}
                for j, question in enumerate(questions):
                    first = source.positions.get(loc + ("questions", j))
                    unread = first is not None and any(first[0] <= e <= last_line(first[0], starts, lines) for e in error_lines)
                    if not unread:
                        move[j] = len(kept)
                        kept.append(question)
                    elif first is not None:
                        source.left_out.append(first[0])
                        if loc + ("questions", j) in source.numbers:
                            source.left_out_numbers[first[0]] = source.numbers[loc + ("questions", j)]
                moves[loc] = move
                section["questions"] = kept
                held = len(kept) + len(section.get("sections") or [])
                draw = str(section.get("select", ""))
                if len(kept) < len(questions) and draw.isdigit() and int(draw) > held:
                    del section["select"]  # a draw the left-out questions made too large is no problem of its own
                kept_any = kept_any or bool(kept)
            walk(section.get("sections"), loc + ("sections",))

    walk(data.get("sections"), ("sections",))
    source.drop_digests()  # the questions' places moved, some left out

    def moved(loc: Loc) -> Loc | None:
        out = list(loc)
        for k in range(len(loc) - 1):
            if loc[k] == "questions" and tuple(loc[:k]) in moves and isinstance(loc[k + 1], int):
                new = moves[tuple(loc[:k])].get(loc[k + 1])  # type: ignore[arg-type]
                if new is None:
                    return None
                out[k + 1] = new
        return tuple(out)

    source.positions = {new: place for loc, place in source.positions.items() if (new := moved(loc)) is not None}
    source.scalars = {new: text for loc, text in source.scalars.items() if (new := moved(loc)) is not None}
    source.numbers = {new: n for loc, n in source.numbers.items() if (new := moved(loc)) is not None}
    source.text_lines = {new: lines for loc, lines in source.text_lines.items() if (new := moved(loc)) is not None}
    return kept_any


def decode_source(raw: bytes, path: str, sink: DiagnosticSink) -> str | None:
    """UTF-8 text with BOM and CR/LF normalised and Unicode in NFC, or None after reporting why not."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        sink.error(
            "QB101",
            f"the file is not valid UTF-8 (byte 0x{raw[exc.start]:02x})",
            SourceSpan(path, line, column),
            hint="save the file as UTF-8",
        )
        return None
    text = text.removeprefix("\ufeff")
    if "\r" in text:  # one look for it, not two passes over every character when there is none
        text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\f" in text:
        # A page break of a paper saved as text (Word, HWP): layout, no one's words. Read as nothing
        # where it stands, so that every line keeps the number the author's editor shows.
        text = text.replace("\f", "")
    text = unicodedata.normalize("NFC", text)
    # One regular-expression scan, not a loop over every character: a bank of 10,000 questions
    # is millions of characters (bench/); and only when the bytes hold one of those characters,
    # which one pass of ``bytes.translate`` tells (a bank's 2.4 MB: 1.6 ms, the scan 8 ms).
    for match in _ILLEGAL_IN_XML.finditer(text) if _may_be_illegal_in_xml(raw) else ():
        ch, start = match.group(), match.start()
        sink.error(
            "QB102",
            f"character U+{ord(ch):04X} is not allowed in XML",
            SourceSpan(path, text.count("\n", 0, start) + 1, start - (text.rfind("\n", 0, start) + 1) + 1),
            hint="delete it (it often comes from copy-paste)",
        )
    return text


#: Control characters but tab and newline, surrogates, U+FFFE and U+FFFF.
_ILLEGAL_IN_XML = re.compile("[\x00-\x08\x0b-\x1f\ud800-\udfff\ufffe\uffff]")
#: Each byte mapped to 1 where it is, in UTF-8, one of those control characters (CR and form
#: feed are not: :func:`decode_source` has made them a line's end and nothing), else to 0.
_CONTROL_BYTES = bytes(int(b <= 0x08 or b == 0x0B or 0x0E <= b <= 0x1F) for b in range(256))


def _may_be_illegal_in_xml(raw: bytes) -> bool:
    """Whether the UTF-8 bytes ``raw`` hold a character :data:`_ILLEGAL_IN_XML` finds once
    decoded: a control character's byte, or U+FFFE's or U+FFFF's three (a surrogate is no valid
    UTF-8: the decoding refused it). Decoding, the line ends made ``\\n`` and NFC make no such
    character of others: where these bytes are not, the text has none."""
    return b"\x01" in raw.translate(_CONTROL_BYTES) or b"\xef\xbf\xbe" in raw or b"\xef\xbf\xbf" in raw


def check_unique_ids(data: dict[str, Any], source: SourceMap, sink: DiagnosticSink) -> None:
    """Repeated section and question ids, located at the repetition (the model alone could only
    say that some id repeats)."""
    if not ids_repeat(data.get("sections")):
        return  # nothing to report: the walk below, which makes each id's place, would find nothing
    seen: dict[str, Loc] = {}  # where each id was first given: located only for a message

    def walk(sections: Any, loc: Loc) -> None:
        if not isinstance(sections, list):
            return
        for i, section in enumerate(sections):
            if not isinstance(section, dict):
                continue
            questions = section.get("questions")
            if not isinstance(questions, list):
                questions = []
            entries = [(section.get("id"), loc + (i,))] + [
                (q.get("id"), loc + (i, "questions", j)) for j, q in enumerate(questions) if isinstance(q, dict)
            ]
            for ident, where in entries:
                if not isinstance(ident, str):
                    continue
                first = seen.setdefault(ident, where)
                if first is not where:
                    span = source.locate(where + ("id",))
                    sink.error("QB133", f"id '{ident}' is already used on line {source.locate(first + ('id',)).line}", span,
                               hint="ids must be unique in a quiz; rename one of them")
                    # Reported: made unique, so the rest of the quiz is still checked (it is not written).
                    node = section if where == loc + (i,) else questions[int(where[-1])]
                    node["id"] = f"{ident}.{span.line}.{span.column}"
                    source.drop_digests()
            walk(section.get("sections"), loc + (i, "sections"))

    walk(data.get("sections"), ("sections",))


def ids_repeat(sections: Any) -> bool:
    """Whether a text id repeats among ``sections`` (model data: a list of sections, each with its
    questions and sections) and their questions, at any depth: every id that
    :func:`check_unique_ids` and the Markdown reader's ``_distinct_made_ids`` look at, and maybe
    more (a list's any item, dict or not, is looked at). Where none repeats, neither finds
    anything to do: they are walked only where one does, as making each id's place (a bank's
    10,000 questions) was most of their time (bench/README.md)."""
    ids: list[Any] = []

    def gather(sections: Any) -> None:
        if not isinstance(sections, (list, tuple)):
            return
        for section in sections:
            if isinstance(section, dict):
                ids.append(section.get("id"))
                questions = section.get("questions")
                if isinstance(questions, (list, tuple)):
                    ids.extend([q.get("id") for q in questions if isinstance(q, dict)])
                gather(section.get("sections"))

    gather(sections)
    texts = [i for i in ids if isinstance(i, str)]
    return len(set(texts)) < len(texts)


def check_quiz_id(data: dict[str, Any], file_stem: str, source: SourceMap, sink: DiagnosticSink) -> None:
    """A quiz without an ``id`` takes its file's name, which must then be a valid id. A name in
    another script than Latin (``한국사.md``) gives a romanised id, and says so."""
    if "id" in data or re.match(IDENTIFIER_PATTERN, file_stem):
        data.setdefault("id", file_stem)
        return
    if any(ch.isalpha() and not ch.isascii() for ch in file_stem):
        quiz_id = romanised_id(file_stem)
        data["id"] = quiz_id
        sink.warning("QB186", f"the quiz id is '{quiz_id}', made from the file name '{file_stem}' (ids are written in Latin "
                     "letters)", SourceSpan(source.path, 1, 1),
                     hint=f"to keep this id when the file is renamed, or to choose another, add 'id: {quiz_id}' to the quiz")
        return
    slug = re.sub(r"[^A-Za-z0-9_.-]+", "-", file_stem).strip("-") or "quiz"
    slug = slug if re.match(IDENTIFIER_PATTERN, slug) else f"quiz-{slug}"
    sink.error("QB135", f"the file name '{file_stem}' cannot be the quiz id (ids use letters, digits, '-', '_', '.')",
               SourceSpan(source.path, 1, 1), hint=f"add 'id: {slug[:60]}' to the quiz")
    # The id the hint suggests, so the rest of the quiz is still checked (it is not written).
    data["id"] = slug[:60]


def romanised_id(name: str) -> str:
    """An id for a name in any script: its letters romanised (anyascii: ``한국사 기말`` ->
    ``hangugsa-gimal``), anything else a '-'; ``quiz-`` and a hash of the name when nothing of it
    is left (``quiz-1a2b3c4d``). The same name always gives the same id."""
    slug = re.sub(r"[^a-z0-9]+", "-", anyascii(unicodedata.normalize("NFC", name)).lower()).strip("-")
    if not slug:
        return "quiz-" + hashlib.blake2b(name.encode("utf-8"), digest_size=4).hexdigest()
    slug = slug if slug[0].isalpha() else "quiz-" + slug
    return slug[:64].rstrip("-")


def validate_quiz(data: dict[str, Any], source: SourceMap, sink: DiagnosticSink) -> Quiz | None:
    """The model, or None after reporting each validation error in the author's words, located."""
    if "settings" in data and data["settings"] is None:  # "settings:" with nothing below it
        del data["settings"]
    # In a watch, the sections and questions whose data did not change since the last build are
    # the model objects validated then (kept_model.py); anything else is validated as ever.
    reused = validated_reusing(data, source.path)
    if reused is not None:
        return reused
    for attempt in range(2):
        try:
            quiz = Quiz.model_validate(data)
            keep(quiz, data, source.path)
            return quiz
        except ValidationError as exc:
            errors = _chosen_members([(err, _data_loc(data, tuple(err["loc"]))) for err in exc.errors()])
            # A number or true/false where text is meant (``text: 1.96``, ``text: yes``): take the
            # text as written, and validate again.
            if attempt == 0 and _texts_as_written(data, errors, source):
                source.drop_digests()  # data changed after the reading
                continue
            reported: set[Loc] = set()
            for err, loc in errors:
                if loc[:1] == ("settings",):
                    report_setting_error(err, loc, data.get("settings"), source, sink, reported)
            found = [explain(err, loc, data, source) for err, loc in errors if loc[:1] != ("settings",)]
            # "unknown key 'choice'; did you mean 'choices'?" says it all: leave out "no 'choices'".
            meant = {(f.parent, f.meant) for f in found if f.code == "QB203" and f.meant}
            for f in found:
                if f.code != "QB204" or (f.parent, f.field) not in meant:
                    sink.error(f.code, f.message, source.locate(f.loc), hint=f.hint)
            return None
    return None


def _texts_as_written(data: dict[str, Any], errors: list[tuple[Any, Loc]], source: SourceMap) -> bool:
    changed = False
    for err, loc in errors:
        written = source.scalars.get(loc)
        if err["type"] != "string_type" or written is None or not loc:
            continue
        parent: Any = data
        for part in loc[:-1]:
            parent = parent[part]
        parent[loc[-1]] = written
        changed = True
    return changed


def _chosen_members(errors: list[tuple[Any, Loc]]) -> list[tuple[Any, Loc]]:
    """A value of a plain union (``sets``: a number of sets, or a list of them) fails each member:
    where one member's errors lie inside the value (``sets.0.a``), that is the member the author
    wrote, and the others' errors about the whole value ("must be a whole number, not a list")
    are left out."""
    inside = {loc[:k] for _, loc in errors for k in range(1, len(loc))}
    return [(err, loc) for err, loc in errors
            if not (loc in inside and len(tuple(err["loc"])) > len(loc) and err["type"].endswith(("_type", "_parsing")))]


def _data_loc(data: Any, loc: Loc) -> Loc:
    """Drop the union tags pydantic puts in error locations (``questions.0.single_choice.id``),
    and the names of a plain union's members (``sets.int``, ``sets.list[dict[...]]``): a name
    after a value that is not a mapping cannot be one of its keys."""
    out: list[str | int] = []
    node = data
    for part in loc:
        if isinstance(node, dict) and isinstance(part, str) and part not in node and node.get("type") == part:
            continue
        if isinstance(part, str) and node is not None and not isinstance(node, dict):
            continue
        out.append(part)
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            node = None
    return tuple(out)
