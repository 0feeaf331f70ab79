"""Moodle XML (question bank export) -> one quiz; its categories become sections.

Read the way Moodle 4.5's importer reads it (question/format/xml/format.php), and forgiving the
way real exports are messy: values padded with whitespace, CDATA or escaped HTML, CRLF line ends,
an element given twice (the first counts, with a warning), a bare ``<question>`` without
``<quiz>``, Moodle 1.9's ``<image>``/``<image_base64>``. One reader per question type, in
:data:`.readers.TYPES`; calculated questions with one set of values are first rewritten as the
numerical or multiple-choice question they then are (:mod:`.calculated`); a type that is in
neither (``randomsamatch``, ``random``, drag and drop onto images, unknown plugins) is reported
at its line, with what it is, and skipped.

What Moodle XML does not hold is reported per question as "lost" (QB711), compared with the values
our own Moodle writer writes, so importing our own output is quiet.

What lives where, in the order a file is read:

- this module: the entry points, :func:`sniff` and :func:`import_moodle` (input -> questions);
- :mod:`.bank`: :class:`~.bank.BankReader`, the file as a question bank: categories (which
  become sections) and what every question has (name, stem, general feedback, grade, penalty,
  tags); it hands each question to its type's reader;
- :mod:`.readers`: one reader per Moodle question type, and :data:`~.readers.TYPES`;
- :mod:`.cloze`: the reader of cloze (``multianswer``) questions, whose answers are embedded in
  the question text, and the stem-with-blanks helpers the gap readers share;
- :mod:`.gaps`: select missing words (``gapselect``), drag and drop into text (``ddwtos``) and
  the Gapfill plugin (``gapfill``), as fill-in-the-blank questions;
- :mod:`.mtf`: the multiple true/false plugin, as a section of true/false questions or matching;
- :mod:`.plugins`: the wordselect and CodeRunner plugins (multiple response, essay), and what a
  STACK question's skip names;
- :mod:`.calculated`: calculated questions with one set of values, and a formula evaluator;
- :mod:`.context`: :class:`~.context.Context`, one question being read, with the lookups the
  readers use; :data:`~.context.Reader` and :func:`~.context.number`;
- :mod:`.file`: :class:`~.file.MoodleFile`, beneath them all: the file's text elements and
  embedded files, and how Moodle writes a category path.

Imports go one way, down this list (``tests/test_import_layers.py``): a type's reader imports
the question context and the file beneath it, never the bank reader above.
"""

from __future__ import annotations

from pathlib import Path

from ...diagnostics import DiagnosticSink, SourceSpan
from ..base import ImportedQuiz
from ..safety import parse_xml, read_input, xml_root
from .bank import BankReader

__all__ = ["import_moodle", "sniff"]


def sniff(path: Path, head: bytes) -> bool:
    # A text page (not .xml) that starts with mkdocs-quiz's <quiz> block has no <question> in it.
    root = xml_root(path, head)
    quiz = root == "quiz" and (path.suffix.lower() == ".xml" or b"<question" in head)
    return (root == "question" or quiz) and b"imsqti" not in head


def import_moodle(path: Path, display: str, sink: DiagnosticSink) -> list[ImportedQuiz]:
    raw = read_input(path, display, sink)
    tree = parse_xml(raw, display, sink) if raw is not None else None
    if tree is None:
        return []
    root = tree.getroot()
    if root.tag == "question":  # a bare question, as some tools export one
        questions = [root]
    elif root.tag == "quiz":
        questions = [q for q in root if q.tag == "question"]
    else:
        sink.error("QB700", f"not Moodle XML: the root element is <{root.tag}>, not <quiz>", SourceSpan(display, root.sourceline or 1))
        return []
    quiz = BankReader(path, display, sink, questions).read()
    return [quiz] if quiz else []
