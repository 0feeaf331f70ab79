#!/usr/bin/env python3
"""Writes the tables of every question kind into the docs, from the kinds' specs.

``qti_builder.kinds.docs_tables()`` makes each table from the specs (a kind's cells are its
``KindSpec.docs``; the outcome feedback and attribute tables follow from its scoring and Markdown
attributes); each goes between its page's ``<!-- kinds: NAME -->`` and ``<!-- kinds: end -->``
markers. A new kind runs this after writing its spec, instead of editing the tables by hand:

    .venv/bin/python tools/kind_docs.py          # rewrite the tables
    .venv/bin/python tools/kind_docs.py --check  # exit 1, naming the tables that differ

tests/test_kinds.py fails while a table differs from its specs.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from qti_builder.kinds import docs_tables

DOCS = Path(__file__).resolve().parent.parent / "docs"
END = "\n<!-- kinds: end -->"


def with_tables(page: str, text: str) -> str:
    """``text`` of docs/``page`` with each of its kinds' tables as the specs make it."""
    for (on, name), table in docs_tables().items():
        if on != page:
            continue
        start = f"<!-- kinds: {name} -->\n"
        if start not in text:
            raise SystemExit(f"docs/{page} has no '{start.strip()}' marker for the kinds' {name} table")
        begin = text.index(start) + len(start)
        end = text.index(END, begin)
        text = text[:begin] + table + text[end:]
    return text


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if a table differs from the specs")
    args = parser.parse_args()
    differ = []
    for page in sorted({page for page, _ in docs_tables()}):
        path = DOCS / page
        text = path.read_text(encoding="utf-8")
        made = with_tables(page, text)
        if made != text:
            differ.append(page)
            if not args.check:
                path.write_text(made, encoding="utf-8")
    verb = "differ from the specs" if args.check else "rewritten from the specs"
    print(f"{', '.join(differ)}: {verb}" if differ else "the kinds' tables are the specs'")
    return 1 if differ and args.check else 0


if __name__ == "__main__":
    sys.exit(main())
