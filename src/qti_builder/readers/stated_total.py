"""The total a paper states for itself (``총점 42``, ``100点満点``, ``满分：100分``, ``Total: 50 points``).

Read once, by the reader, from the paper's head (its title and the lines before the first section
or question) into ``Quiz.stated_points``; the check that the questions add up to it is
:func:`qti_builder.totals.check_stated_total` (QB219). A section's own total (``四、简答题（共20分）``)
is the section's, not the paper's: only the head is searched.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

_N = r"(?P<n>\d+(?:\.\d+)?)"

#: How papers state their total, in the nine languages; each form names the number ``n``. The
#: words around it keep a section rule (``각 3점``, ``每题4分``, ``3 pts each``) from matching.
FORMS: tuple[re.Pattern[str], ...] = tuple(re.compile(p, re.IGNORECASE) for p in (
    # ko: 총점 42, 총점: 42점, 총 10점, 100점 만점, 만점 100점
    rf"총\s*점\s*[:：]?\s*{_N}\s*점?",
    rf"총\s+{_N}\s*점",
    rf"{_N}\s*점\s*만점",
    rf"만점\s*[:：]?\s*{_N}\s*점?",
    # ja: 満点 100, 100点満点, 合計 50点, 配点 計100点
    rf"{_N}\s*点\s*満点",
    rf"満点\s*[:：]?\s*{_N}\s*点?",
    rf"合計\s*[:：]?\s*{_N}\s*点",
    # zh: 满分100分, 满分：100, 共18分, 总分 100 分
    rf"满分\s*[:：]?\s*{_N}\s*分?",
    rf"总分\s*[:：]?\s*{_N}\s*分?",
    rf"(?<![每各])共\s*{_N}\s*分",
    # en: Total: 50 points, Total marks: 50, 50 points total, out of 50 points
    # (a colon or a unit: "the total of 3 apples" in a text is no stated total)
    rf"\btotal(?:\s+(?:points|marks|score))?\s*[:=]\s*{_N}(?:\s*(?:points|pts|marks)\b)?",
    rf"\btotal\s+{_N}\s*(?:points|pts|marks)\b",
    rf"\b{_N}\s*(?:points|pts|marks)\s+(?:in\s+)?total\b",
    # de: Gesamtpunktzahl: 40, Insgesamt 40 Punkte, 40 Punkte insgesamt
    rf"\bgesamtpunkt(?:zahl|e)\s*[:=]?\s*{_N}(?:\s*punkte?\b)?",
    rf"\binsgesamt\s*[:=]?\s*{_N}\s*punkte?\b",
    rf"\b{_N}\s*punkte?\s+insgesamt\b",
    # fr: Total : 20 points, Barème total : 20, noté sur 20
    rf"\bbarème\s+total\s*[:=]?\s*{_N}\b",
    rf"\bnoté\s+sur\s+{_N}\b",
    # es, pt: Puntuación total: 10, Pontuação total: 10, Total: 10 puntos
    rf"\bpuntuaci[oó]n\s+total\s*[:=]?\s*{_N}(?:\s*puntos\b)?",
    rf"\bpontua[cç][aã]o\s+total\s*[:=]?\s*{_N}(?:\s*pontos\b)?",
    rf"\btotal\s*[:=]?\s*{_N}\s*(?:puntos|pontos)\b",
    # it: Punteggio totale: 30, Totale: 30 punti
    rf"\bpunteggio\s+totale\s*[:=]?\s*{_N}(?:\s*punti\b)?",
    rf"\btotale\s*[:=]?\s*{_N}\s*punti\b",
))


@dataclass(frozen=True)
class StatedTotal:
    points: float
    #: The words as the paper writes them (``총점 42``), to quote in a message.
    written: str
    #: 0-based index of the line searched, and 1-based column of the words.
    index: int
    column: int


def find_stated_total(lines: list[str]) -> StatedTotal | None:
    """The first total stated in ``lines`` (full-width digits read as digits)."""
    for index, line in enumerate(lines):
        # NFKC maps full-width digits and colons (１００点満点, 総点：４２) to ASCII, length for length.
        folded = unicodedata.normalize("NFKC", line)
        if len(folded) != len(line):
            folded = "".join(unicodedata.normalize("NFKC", ch)[:1] or ch for ch in line)
        # The words that start first, the longest of them: 'Puntuación total: 10 puntos', not 'total: 10'.
        found = [m for m in (form.search(folded) for form in FORMS) if m]
        if found:
            match = min(found, key=lambda m: (m.start(), -m.end()))
            return StatedTotal(float(match.group("n")), line[match.start():match.end()].strip(), index, match.start() + 1)
    return None
