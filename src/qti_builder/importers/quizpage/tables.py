"""Two-column matching tables on a pasted paper, read by the source reader's table reader
(readers/markdown/tables.py) so that ``import`` and ``build`` read a table alike: each item a
choice question of its own, the table's definitions its options."""

from __future__ import annotations

import re
from collections.abc import Callable

from ...diagnostics import DiagnosticSink, SourceSpan
from ...readers.markdown import tables as T
from . import blocks as B
from .syntax import Question, columns, join

TABLE_CODES = T.CODES


def read_tables(questions: list[Question], sink: DiagnosticSink, span: Callable[[int, int], SourceSpan],
                language: str = "en") -> set[int]:
    """Turn each table's rows into choice questions; report what does not fit. The ids of the
    questions not to emit (their problem is reported)."""
    refused: set[int] = set()
    start = 0
    while start < len(questions):
        end = start
        while end < len(questions) and questions[end].section is questions[start].section:
            end += 1
        group = questions[start:end]
        items = [_item(q) for q in group]
        for run in T.runs(items):
            rows = [group[i] for i in run]
            # Definitions at the margin read as a row's options (``D. …``): the table's too.
            extra = [(q.line, f"{letter}. {join(text)}") for q in rows for letter, text in q.options]
            table = T.read([items[i] for i in run], extra, language)
            for code, message, line, column, hint in table.problems:
                if code == "QB192":
                    # The key's own "question 8 has no answer" (QB705) at the item says it again: one error.
                    sink.items[:] = [d for d in sink.items if not (d.code == "QB705" and d.span is not None
                                                                    and d.span.line == line)]
                sink.error(code, message, span(line, column), hint)
            for index, q in enumerate(rows):
                q.stem, q.column = [table.terms[index][0]], table.terms[index][1]
                q.options = [(d.mark.letter, [d.text]) for d in table.definitions]
                q.ordinals = [d.mark.ordinal for d in table.definitions]
                q.style = table.definitions[0].mark.style if table.definitions else None
                if index in table.refused:
                    refused.add(id(q))
        start = end
    return refused


def _item(q: Question) -> T.Item:
    answer = q.labels.get("answer")
    first = q.stem[0] if q.stem and q.number is not None and not q.pair_slots else ""
    where = q.keyed or (q.label_lines.get("answer", q.line), 1)
    return T.Item(q.number or 0, q.line, q.column, first, [(q.line + i, text) for i, text in enumerate(q.stem[1:], 1)],
                  (join(answer), *where) if answer and join(answer).strip() else None)


def page_table(table: B.Table) -> bool:
    """Is a Markdown table a web page's own form, read by the page reader as questions: an answer
    key (a column of answers beside the questions' numbers), questions with their answers a row
    each, or a question's options a row each (a column of letters ``A``, ``B``, …)? Any other table
    (a passage's fees, a process table) is the text of the question it stands in."""
    if not table.rows:
        return False
    if columns(table.header).get("answer") is not None:
        return True
    rows = ([table.header] if option_letter(table.header[0] if table.header else "") == "A" else []) + [r for _, r in table.rows]
    letters = [option_letter(row[0] if row else "") for row in rows]
    return len(rows) >= 2 and letters == [chr(ord("A") + i) for i in range(len(rows))]


def option_letter(text: str) -> str | None:
    """``A``, ``a)``, ``(B)``, ``c.`` as the option letter it names (upper case); None for other text."""
    found = re.fullmatch(r"\s*\(?\s*([A-Za-z])\s*[).:]?\s*", text)
    return found.group(1).upper() if found else None
