"""Diagnostics in the teacher's language: gettext catalogs (``locale/<lang>/LC_MESSAGES/qti_builder.po``,
read with Babel), English the default.

A catalog entry's msgid is an English message or hint as the code writes it, with its changing
parts named in braces (``unknown label '{label}'{near}``); its msgstr says the same with the same
names. A diagnostic is translated when it is printed: its English text is matched against the
msgids and the parts found are put into the msgstr, each part translated in turn when it is itself
an entry (``; did you mean '{word}'?``), or a list of such entries ('a; b', 'a, b'). An entry of
context "wrapper" says something of a whole message (``{message} (a warning, failing because of
--strict)``): its message is translated as one. The code that reports a problem keeps writing plain
English, so adding a language, or a message to a language, is data: one .po file, one entry.
tests/test_messages_translated_everywhere.py prints what every code's example and many other
mistakes say in each language, and names what stays English.

Which language: ``--lang``, else the quiz's ``language``, else English. Machine reports (json,
github, junit) stay in English.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

#: The gettext domain, and where its catalogs are.
DOMAIN = "qti_builder"
LOCALES = Path(__file__).parent / "locale"

FRAGMENT = "fragment"
#: An entry that says something of a whole message (msgctxt "wrapper": ``{message} (a warning,
#: failing because of --strict)``): its ``{message}`` is translated as a message of its own.
WRAPPER = "wrapper"
_PLACEHOLDER = re.compile(r"\{([a-z_]+)\}")


@dataclass(frozen=True)
class Entry:
    msgid: str
    msgstr: str
    pattern: re.Pattern[str]
    #: A part of messages (msgctxt "fragment": ``; did you mean '{word}'?``, ``option {option}``),
    #: matched only against the values of a message, never as a whole message.
    fragment: bool = False
    wrapper: bool = False


def placeholders(template: str) -> list[str]:
    """The names in braces of a msgid or msgstr, in order."""
    return _PLACEHOLDER.findall(template)


def _pattern(msgid: str) -> re.Pattern[str]:
    parts, last, seen = [], 0, set()
    for match in _PLACEHOLDER.finditer(msgid):
        name = match.group(1)
        parts.append(re.escape(msgid[last:match.start()]))
        parts.append(f"(?P={name})" if name in seen else f"(?P<{name}>.*?)")  # a name used twice is one value
        seen.add(name)
        last = match.end()
    parts.append(re.escape(msgid[last:]))
    return re.compile("".join(parts), re.DOTALL)


def languages() -> list[str]:
    """The languages that have a catalog."""
    return sorted(p.name for p in LOCALES.iterdir() if (p / "LC_MESSAGES" / f"{DOMAIN}.po").is_file()) if LOCALES.is_dir() else []


def catalog_path(language: str) -> Path:
    return LOCALES / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def kind_catalog_paths(language: str) -> list[Path]:
    """A question kind's own catalogs of a language, ``kind_<name>.po`` beside the main one: the
    messages of a kind that has a module of its own (its model's rules, its reader's errors) come
    with the kind, so adding one touches no shared catalog."""
    return sorted(catalog_path(language).parent.glob("kind_*.po"))


@lru_cache(maxsize=16)
def catalog(language: str) -> tuple[Entry, ...]:
    """The translated entries of a language's catalog and its kinds' own: the wrappers, then the
    others, each longest msgid first (the most specific wins); nothing for English or a language
    without a catalog."""
    path = catalog_path(language)
    if not path.is_file():
        return ()
    from babel.messages.pofile import read_po

    entries = []
    for each in (path, *kind_catalog_paths(language)):
        with each.open("rb") as handle:
            po = read_po(handle, locale=language, domain=DOMAIN)
        entries += [Entry(str(m.id), str(m.string), _pattern(str(m.id)), m.context == FRAGMENT, m.context == WRAPPER) for m in po
                    if m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string and not m.fuzzy]
    return tuple(sorted(entries, key=lambda e: (not e.wrapper, -len(e.msgid))))


def primary(language: str | None) -> str:
    return (language or "en").split("-")[0].lower()


def translate(text: str, language: str | None, depth: int = 0) -> str:
    """``text`` (an English message or hint) in ``language``, when its catalog has it; else as it is."""
    entries = catalog(primary(language))
    if not entries or not text or depth > 3:
        return text
    parts = _outside_parentheses(text, "; ")
    if depth > 0 and len(parts) > 1 and not text.startswith("; "):
        # A value that lists parts (QB219's 'A: 3 points in 2 questions; B: ...'): each part is a
        # fragment of its own, however many there are (before a fragment swallows them whole). A
        # '; ' in parentheses is a part's own ('35 % (choice A; nearest option 33.33333 %)').
        return "; ".join(translate(part, language, depth) for part in parts)
    for entry in entries:  # a wrapper first: it says something of the whole message (only at the top)
        if entry.fragment != (depth > 0) or (entry.wrapper and depth > 0):
            continue
        match = entry.pattern.fullmatch(text)
        if match:
            values = {name: translate(value, language, depth if entry.wrapper and name == "message" else depth + 1)
                      for name, value in match.groupdict().items()}
            # Only the entry's own names are replaced: a hint's '{type=essay}' is text.
            return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), m.group(0)), entry.msgstr)
    if depth > 0 and ", " in text:
        # A value that lists fragments ('the response format, the word limits'), each translated;
        # a list of anything else (numbers, ids) stays as it is.
        items = text.split(", ")
        translated = [translate(item, language, depth) for item in items]
        if all(new != old for new, old in zip(translated, items)):
            return _LIST_SEPARATORS.get(primary(language), ", ").join(translated)
    return text


#: How a language separates the items of a list; ", " where it is not said.
_LIST_SEPARATORS = {"ja": "、", "zh": "、"}


def _outside_parentheses(text: str, separator: str) -> list[str]:
    """``text`` cut at each ``separator`` that is not in parentheses."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth = max(0, depth - 1)
        elif depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            start = i + len(separator)
            i = start
            continue
        i += 1
    return [*parts, text[start:]]
