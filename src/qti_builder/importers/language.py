"""The language of a pasted exam paper or quiz page, from its prose.

A paper says its language in its words, not in its code, formulas or links: those are left out
(:func:`prose`) before anything is counted. Korean, Japanese and Chinese are told apart by their
scripts' share of the prose's letters (Hangul; kana beside Han characters; Han alone). A paper in
Latin letters is told by its words: the labels and words the readers know per language
(vocabulary.py) and each language's commonest short words, counted over the whole prose. Where
the evidence is weak (a few words, or no language clearly ahead), the answer is ``None`` and the
caller keeps its own default: a teacher sees the language in the outline and can set it in the
front matter. Pure counting: the same text always gives the same answer.
"""

from __future__ import annotations

import re

from .. import vocabulary as V

#: What is not prose: fenced code, inline code, display and inline formulas, HTML tags and
#: entities, URLs and link targets. Removed in this order (a fence may hold the others).
_NOT_PROSE = (
    re.compile(r"^ {0,3}(```+|~~~+)[^\n]*\n.*?(?:^ {0,3}\1[ \t]*$|\Z)", re.M | re.S),
    re.compile(r"(`+)[^\n]*?\1"),
    re.compile(r"\$\$.*?\$\$|\\\[.*?\\\]|\\\(.*?\\\)", re.S),
    re.compile(r"(?<![\\\w])\$[^$\n]+?\$"),
    re.compile(r"<(?:pre|code|script|style)\b.*?</(?:pre|code|script|style)>", re.S | re.I),
    re.compile(r"<[^>\n]+>|&#?\w+;"),
    re.compile(r"\]\([^)\s]*\)|\b(?:https?|ftp)://\S+|\bwww\.\S+|\S+@\S+\.\w+"),
)


def prose(text: str) -> str:
    """The text without its code, formulas, markup and addresses."""
    for pattern in _NOT_PROSE:
        text = pattern.sub(" ", text)
    return text


#: Each Latin-script language's commonest short words (articles, prepositions, conjunctions,
#: pronouns, question words) and the words exam papers use everywhere. A word listed for several
#: languages counts for each: what tells them apart is the words only one of them has.
COMMON_WORDS: dict[str, tuple[str, ...]] = {
    "en": ("the", "and", "of", "to", "is", "are", "which", "what", "that", "this", "with", "for", "from", "each", "be",
           "not", "an", "on", "by", "it", "following", "write", "choose", "how", "why", "when", "does", "your", "you",
           "these", "will", "can", "was", "were", "has", "have", "if", "its", "their", "there", "would", "should"),
    "de": ("der", "die", "das", "und", "ist", "sind", "nicht", "ein", "eine", "einen", "einer", "mit", "von", "zu", "den",
           "dem", "des", "auf", "für", "sie", "es", "wie", "was", "welche", "welcher", "werden", "wird", "auch", "bei",
           "aus", "oder", "im", "nach", "kann", "sich", "dass", "wenn", "geben", "ihre", "zum", "zur", "punkte"),
    "fr": ("le", "la", "les", "des", "du", "un", "une", "et", "est", "sont", "que", "qui", "dans", "pour", "pas", "sur",
           "avec", "ce", "cette", "il", "elle", "au", "aux", "par", "ou", "vous", "on", "quelle", "quel", "quelles",
           "suivante", "suivantes", "ne", "se", "en", "de", "donner", "peut", "être", "votre", "points"),
    "es": ("el", "la", "los", "las", "del", "un", "una", "y", "es", "son", "que", "en", "por", "para", "con", "se", "no",
           "al", "lo", "como", "cuál", "cuáles", "qué", "su", "sus", "pregunta", "siguiente", "siguientes", "esta",
           "este", "o", "más", "entre", "cada", "de", "puntos", "hay", "están", "cuando"),
    "pt": ("o", "a", "os", "as", "do", "da", "dos", "das", "um", "uma", "e", "é", "são", "que", "em", "no", "na", "nos",
           "nas", "por", "para", "com", "se", "não", "ao", "como", "qual", "quais", "sua", "seu", "questão", "seguinte",
           "seguintes", "esta", "este", "ou", "mais", "cada", "pelo", "pela", "de", "pontos", "você", "também"),
    "it": ("il", "lo", "la", "gli", "le", "i", "del", "della", "dei", "delle", "un", "una", "e", "è", "sono", "che", "di",
           "in", "per", "con", "non", "al", "alla", "come", "quale", "quali", "questo", "questa", "domanda", "seguente",
           "seguenti", "si", "ed", "anche", "nel", "nella", "tra", "ogni", "punti", "perché", "degli"),
}

LATIN_LANGUAGES = tuple(COMMON_WORDS)

#: A Latin-script language is named when its words are at least this many and this far ahead
#: of the next language's: below, the evidence is too weak to name one.
_LEAST_WORDS = 6
_AHEAD = 1.5
#: Korean, Japanese or Chinese is the paper's language when its characters are at least this
#: share of the prose's units (a character of these scripts, or a word in Latin letters: a Korean
#: paper that tests English holds many English words, its instructions are Korean all the same).
_CJK_SHARE = 0.15
_LEAST_CJK = 10

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
#: Hiragana and katakana, less the middle dot (``・``) Chinese text also uses.
_KANA = re.compile(r"[\u3040-\u30fa\u30fc-\u30ff]")
_HAN = re.compile(r"[\u4e00-\u9fff]")
_LATIN_WORD = re.compile(r"[^\W\d_]+")


def _word_table() -> dict[str, frozenset[str]]:
    """Each Latin-script language's words: its common words and the single words of its labels
    and exam vocabulary (vocabulary.py), lower case."""
    table: dict[str, frozenset[str]] = {}
    for code, common in COMMON_WORDS.items():
        known = V.LANGUAGES.get(code)
        words = set(common)
        if known is not None:
            for phrase in (*known.labels, *known.page_labels, *known.true_words, *known.false_words, *known.or_words,
                           *known.question_words, *known.points_units, *known.section_words, *known.task_words):
                if " " not in phrase and len(phrase) > 2 and phrase.isalpha():
                    words.add(phrase)
        table[code] = frozenset(words)
    return table


def script_language(text: str) -> str | None:
    """Korean, Japanese or Chinese, when the prose is written in it (see :data:`_CJK_SHARE`)."""
    hangul, kana, han = (len(p.findall(text)) for p in (_HANGUL, _KANA, _HAN))
    cjk = hangul + kana + han
    words = len(re.findall(r"[A-Za-z\u00c0-\u024f]+", text))
    if cjk < _LEAST_CJK or cjk < _CJK_SHARE * (cjk + words):
        return None
    if hangul >= kana + han:
        return "ko"
    # Japanese writes many kanji, but never without kana; Chinese has none.
    return "ja" if kana >= 0.05 * (kana + han) else "zh"


def words_language(text: str) -> str | None:
    """The Latin-script language most of the prose's common words belong to, when it is clearly ahead."""
    table = _word_table()
    counts = dict.fromkeys(table, 0)
    for word in _LATIN_WORD.findall(text.lower()):
        for code, words in table.items():
            counts[code] += word in words
    ranked = sorted(counts.items(), key=lambda item: (-item[1], item[0]))
    (best, most), (_, next_most) = ranked[0], ranked[1]
    return best if most >= _LEAST_WORDS and most >= _AHEAD * next_most else None


def text_language(text: str) -> str | None:
    """The language of a pasted paper's prose (ko, ja, zh, en, de, fr, es, pt, it), or ``None``
    where the evidence is weak."""
    body = prose(text)
    return script_language(body) or words_language(body)
