"""Import measured on real exports (issue 32): every real export of other systems that imports
builds, and one that cannot be imported is refused saying what it lacks.

The real exports sit beside the checkout where the workspace has them (``../shared/corpus/
lms-exports``; never copied into the project) and the test is skipped without them; bench/
corpus_import.py measures the same folder for docs/import.md's table. The quirks found in them are
reproduced by the project's own fixtures, built by tests/test_import_builds.py with every other
fixture, and tested each in its importer's test file. The refusals below need no corpus.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT
from helpers.importing import builds, messages, run_import

CORPUS = ROOT.parent / "shared" / "corpus" / "lms-exports"
CORPUS_ENTRIES = sorted(p for f in CORPUS.iterdir() if f.is_dir() for p in f.iterdir()) if CORPUS.is_dir() else []
#: QB704 with nothing more to say: right only for an input in which no question was found at all.
BARE_REFUSAL = "nothing to import: no question could be read"


@pytest.mark.skipif(not CORPUS_ENTRIES, reason=f"no corpus of real LMS exports at {CORPUS}")
@pytest.mark.parametrize("path", CORPUS_ENTRIES or [CORPUS], ids=lambda p: p.relative_to(CORPUS).as_posix() if p != CORPUS else "none")
def test_every_corpus_export_that_imports_builds(path: Path, tmp_path: Path) -> None:
    quizzes, sink = run_import(path)
    if sink.errors:
        # Refused: with a located error that names what the export lacks, and nothing of it written.
        assert all(d.span is not None and d.span.path for d in sink.errors), messages(sink)
        skipped = [d for d in sink.items if d.code in ("QB710", "QB713")]
        assert not (skipped and any(d.message == BARE_REFUSAL for d in sink.errors)), messages(sink)
        return
    assert quizzes, messages(sink)
    for number, item in enumerate(quizzes):
        folder = tmp_path / str(number)
        folder.mkdir()
        builds(item.quiz, item.media, folder)  # raises if the build refuses the source
        assert len(list((folder / "dist").iterdir())) == 3


STATEFUL = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="stateful"><name><text>Scenes one</text></name><questiontext format="html"><text>Walk the scenes.</text></questiontext></question>
  <question type="stateful"><name><text>Scenes two</text></name><questiontext format="html"><text>Walk again.</text></questiontext></question>
</quiz>
"""

STACK = """<?xml version="1.0" encoding="UTF-8"?>
<quiz>
  <question type="stack"><name><text>Derivative</text></name>
    <questiontext format="html"><text>Differentiate @f@. [[input:ans1]] [[validation:ans1]]</text></questiontext>
    <questionvariables><text>f: sin(x)^2;</text></questionvariables>
    <input><name>ans1</name><type>algebraic</type><tans>diff(f,x)</tans></input>
  </question>
</quiz>
"""


@pytest.mark.parametrize("name, text, expected", [
    ("stateful.xml", STATEFUL, "nothing to import: none of the 2 questions it holds can be imported (2 stateful); the first: "
                               "question 'Scenes one' has the type 'stateful', which cannot be imported; skipped"),
    ("stack.xml", STACK, "nothing to import: the one question it holds cannot be imported (1 stack): question 'Derivative' has "
                         "the type 'stack', which cannot be imported"),
])
def test_an_export_none_of_whose_questions_can_be_imported_says_which_and_why(tmp_path: Path, name: str, text: str,
                                                                              expected: str) -> None:
    """Real Moodle banks of plug-in types only (Stateful, STACK, Combined) and TAO packages of a
    portable custom interaction only were refused with "no question could be read"; the refusal
    now counts the questions by type and gives the first one's reason."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    quizzes, sink = run_import(path)
    assert not quizzes
    (error,) = sink.errors
    assert error.code == "QB704" and error.message.startswith(expected), error.message
    assert "named in a warning" in (error.hint or "")
