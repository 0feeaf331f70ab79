"""The multiple true/false plugin (``mtf``, github.com/ethz-let/moodle-qtype_mtf): statements
(``<row>``) each judged in one of the columns (``<column>``, usually True and False); the column
with weight 1 in a row's ``<weight>`` is its right judgement.

Its usual scoring, ``subpoints``, gives each right row an equal share of the mark. Two forms keep
that, and the reader takes the one that keeps more:

- columns that read as true and false (in any language qti-builder knows): a section of its own,
  titled like the question, its text as the section's introduction, one true/false question per
  row worth an equal share of the mark, each row's feedback as that question's feedback;
- other columns ("Agree"/"Disagree"): a matching question, rows as prompts and the columns as
  the answers (the model gives each right pair an equal share); a single row: a single choice.

``mtfonezero`` (all or nothing) and a deduction for wrong rows cannot be kept: reported.
"""

from __future__ import annotations

import html
import re

from lxml import etree

from ...i18n import TRUE_FALSE
from ...plurals import plural
from ..base import INVALID, choice_ids, one_line
from .context import Context, Data, number

TRUE_WORDS = {w.casefold() for w, _ in TRUE_FALSE.values()} | {"true", "yes", "richtig", "correct"}
FALSE_WORDS = {w.casefold() for _, w in TRUE_FALSE.values()} | {"false", "no", "wrong"}


def _number(element: etree._Element, name: str) -> int:
    value = number(element.get(name))
    return int(value) if value is not None else 0


def _label(column: etree._Element) -> str:
    text = column.findtext("responsetext/text") or column.findtext("responsetext") or ""
    return one_line(html.unescape(re.sub(r"<[^>]*>", "", text)))


def mtf(c: Context) -> bool | None:
    rows = sorted(c.element.findall("row"), key=lambda r: _number(r, "number"))
    columns = sorted(c.element.findall("column"), key=lambda r: _number(r, "number"))
    weights = {(_number(w, "rownumber"), _number(w, "columnnumber")): number(w.findtext("value")) or 0.0
               for w in c.element.findall("weight")}
    labels = [_label(col) for col in columns]
    if not rows or len(columns) < 2:
        c.skip(INVALID, f"question '{c.name}' (mtf) has {plural(len(rows), 'row')} and {plural(len(columns), 'column')}; skipped")
        return False
    right: list[int] = []
    for row in rows:
        chosen = [i for i, col in enumerate(columns) if weights.get((_number(row, "number"), _number(col, "number")), 0) > 0]
        if len(chosen) != 1:
            c.skip(INVALID, f"question '{c.name}' (mtf): row {_number(row, 'number')} has {plural(len(chosen), 'right column')}, "
                            "not one; skipped")
            return False
        right.append(chosen[0])
    scoring = one_line(c.element.findtext("scoringmethod/text") or c.element.findtext("scoringmethod")).lower() or "subpoints"
    if scoring == "mtfonezero":
        c.lost.append("all-or-nothing scoring (mtfonezero): each row now scores on its own")
    deduction = number(c.value("deduction")) or 0.0
    if deduction > 0:
        c.lost.append(f"the deduction of {deduction:g} for a wrong row")
    shuffle = c.value("shuffleanswers").lower() in ("1", "true", "yes")
    texts = [c.file._rich(row.find("optiontext"), c.span, f"row {i} of '{c.name}'") for i, row in enumerate(rows, 1)]
    feedbacks = [c.file._rich(row.find("feedbacktext"), c.span, f"the feedback of row {i} of '{c.name}'")
                 for i, row in enumerate(rows, 1)]
    folded = [label.casefold() for label in labels]
    if len(columns) == 2 and folded[0] in TRUE_WORDS | FALSE_WORDS and folded[1] in TRUE_WORDS | FALSE_WORDS \
            and (folded[0] in TRUE_WORDS) != (folded[1] in TRUE_WORDS):
        true_column = 0 if folded[0] in TRUE_WORDS else 1
        _true_false_rows(c, texts, feedbacks, [r == true_column for r in right], shuffle)
        return None
    if any(feedbacks):
        c.lost.append("the feedback of each row")
    if len(rows) == 1:
        c.data["type"] = "single_choice"
        c.data["stem"] = "\n\n".join(p for p in (c.data["stem"], texts[0]) if p)
        c.data["choices"] = [{"id": ident, "text": label, "correct": i == right[0]}
                             for i, (ident, label) in enumerate(zip(choice_ids(len(labels)), labels))]
        return None
    c.data["type"] = "matching"
    c.data["pairs"] = [{"prompt": text, "answer": labels[r]} for text, r in zip(texts, right)]
    c.data["distractors"] = [label for label in labels if label not in {labels[r] for r in right}]
    c.data["shuffle"] = shuffle
    return None


def _true_false_rows(c: Context, texts: list[str], feedbacks: list[str], answers: list[bool], shuffle: bool) -> None:
    """One true/false question per row, in a section of their own that :class:`.bank.BankReader` makes."""
    points = c.data.get("points", 1.0)
    share = round(points / len(texts), 7) if points else 0.0
    questions: list[Data] = []
    for text, feedback, answer in zip(texts, feedbacks, answers):
        question: Data = {"type": "true_false", "stem": text, "answer": answer, "points": share, "feedback": {},
                          "tags": list(c.data["tags"])}
        if feedback:
            question["feedback"]["general"] = feedback
        questions.append(question)
    if c.data["feedback"].get("general"):
        c.lost.append("the general feedback (a section has none)")
    c.section = {"title": c.name, "description": c.data["stem"] or None, "shuffle": shuffle, "questions": questions}
