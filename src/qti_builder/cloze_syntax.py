"""How Moodle 4.5 reads a cloze question's text: its embedded answers and their alternatives.

The port of qtype_multianswer's parser, once: the build's checks of Moodle XML (validate.py) read
a cloze text with it, and the Moodle quiz backup (writers/moodle_backup.py) makes a cloze
question's subquestions with it, as Moodle's importer makes them.
"""

from __future__ import annotations

import re

# qtype_multianswer's parser (question/type/multianswer/questiontype.php, Moodle 4.5), ported:
# PHP's lookbehind (?<!\\|&|&amp;) is written as three lookbehinds for Python.
_CLOZE_FRACTION = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%"
_CLOZE_ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
_CLOZE_FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
_CLOZE_ALTERNATIVE = f"({_CLOZE_FRACTION})?({_CLOZE_ANSWER})(#({_CLOZE_FEEDBACK}))?"
_CLOZE_TYPES = ("NUMERICAL|NM|MULTICHOICE|MC|MULTICHOICE_V|MCV|MULTICHOICE_H|MCH|SHORTANSWER|SA|MW|SHORTANSWER_C|SAC|"
                "MWC|MULTICHOICE_S|MCS|MULTICHOICE_VS|MCVS|MULTICHOICE_HS|MCHS|MULTIRESPONSE|MR|MULTIRESPONSE_H|MRH|"
                "MULTIRESPONSE_S|MRS|MULTIRESPONSE_HS|MRHS")
_CLOZE_EMBEDDED = re.compile(r"\{([0-9]*):(" + _CLOZE_TYPES + r"):(" + _CLOZE_ALTERNATIVE + "(~" + _CLOZE_ALTERNATIVE + r")*)\}", re.S)
_CLOZE_NEXT_ALTERNATIVE = re.compile("~?" + _CLOZE_ALTERNATIVE, re.S)
_CLOZE_LONG_NAMES = {"NM": "NUMERICAL", "MC": "MULTICHOICE", "MCV": "MULTICHOICE_V", "MCH": "MULTICHOICE_H",
                     "SA": "SHORTANSWER", "MW": "SHORTANSWER", "SAC": "SHORTANSWER_C", "MWC": "SHORTANSWER_C",
                     "MCS": "MULTICHOICE_S", "MCVS": "MULTICHOICE_VS", "MCHS": "MULTICHOICE_HS", "MR": "MULTIRESPONSE",
                     "MRH": "MULTIRESPONSE_H", "MRS": "MULTIRESPONSE_S", "MRHS": "MULTIRESPONSE_HS"}


#: An embedded answer of a cloze text, as Moodle finds it.
CLOZE_EMBEDDED = _CLOZE_EMBEDDED


def cloze_subquestions(text: str) -> list[tuple[str, list[tuple[float, str]]]]:
    """The embedded answers Moodle finds in a cloze question text: per answer its type (long
    name) and its alternatives as (fraction 0..1, raw answer text)."""
    found = []
    for match in _CLOZE_EMBEDDED.finditer(text):
        kind = _CLOZE_LONG_NAMES.get(match.group(2), match.group(2))
        alternatives = []
        remaining = match.group(3)
        while remaining and (alt := _CLOZE_NEXT_ALTERNATIVE.match(remaining)):
            if alt.group(1) == "=":
                fraction = 1.0
            elif alt.group(2):
                fraction = float(alt.group(2).replace(",", ".")) / 100
            else:
                fraction = 0.0
            alternatives.append((fraction, alt.group(3)))
            remaining = remaining[alt.end():]
        found.append((kind, alternatives))
    return found
