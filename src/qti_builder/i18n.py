"""Words the writers add to a quiz themselves, in the quiz's language.

Keyed by the primary language subtag; English is the fallback. Adding a language is adding a row.
"""

from __future__ import annotations

#: True/false labels shown to students.
TRUE_FALSE = {
    "en": ("True", "False"),
    "ko": ("참", "거짓"),
    "ja": ("正しい", "誤り"),
    "zh": ("对", "错"),
    "de": ("Wahr", "Falsch"),
    "fr": ("Vrai", "Faux"),
    "es": ("Verdadero", "Falso"),
    "pt": ("Verdadeiro", "Falso"),
    "it": ("Vero", "Falso"),
    "nl": ("Waar", "Onwaar"),
}


def true_false_labels(language: str) -> tuple[str, str]:
    return TRUE_FALSE.get(language.split("-")[0].lower(), TRUE_FALSE["en"])
