"""A paper pasted from a word processor or a PDF keeps the list bullets its options had, with
the indent of the document's list and often a zero-width space after the bullet (``   ●​   ① that``).
Before, such lines were the question's text: the question had no options (QB128) and students
would have seen the options as text. They are its options, read as without the bullet; the built
outputs grade the keyed answer right. Bullets Markdown writes (``-``, ``*``, ``+``) indented under a
question stay a list in its text, as docs/source-format.md says.
"""

from __future__ import annotations

from pathlib import Path

from helpers.cli import check_source, run
from helpers.reading import read_clean
from helpers.scoring import Built

from qti_builder import BuildOptions, build

ZWSP = "\u200b"

PAPER = f"""영어 문법 진단 테스트

1. Do you think _____ he will come to the party?

   ●{ZWSP}   ① that
   ●{ZWSP}   ② if
   ●{ZWSP}   ③ whether

2. She _____ studying English for three hours.

      •   ① has been
      •   ② have been
      •   ③ is

[정답]
1.③ 2.①
"""


def test_options_pasted_with_their_bullets_are_options(tmp_path: Path) -> None:
    (tmp_path / "paper.txt").write_text(PAPER, encoding="utf-8")
    code, out, err = run("import", "paper.txt", "-o", "out", cwd=tmp_path)
    assert code == 0, out + err
    (source,) = (tmp_path / "out").glob("*.md")
    quiz = read_clean(source)
    assert [(q.stem, [c.text for c in q.choices], [c.text for c in q.choices if c.correct], q.numbering)
            for q in quiz.iter_questions()] == [
        ("Do you think _____ he will come to the party?", ["that", "if", "whether"], ["whether"], "circled-decimal"),
        ("She _____ studying English for three hours.", ["has been", "have been", "is"], ["has been"], "circled-decimal"),
    ]
    dist = tmp_path / "dist"
    result = build(BuildOptions(sources=[source], out_dir=dist, jobs=1))
    assert not [d for d in result.diagnostics if d.severity.value == "error"]
    built = Built.read(quiz, dist)
    for q in quiz.iter_questions():
        right = frozenset(i for i, c in enumerate(q.choices) if c.correct)
        wrong = frozenset({next(i for i, c in enumerate(q.choices) if not c.correct)})
        assert [built.score(t, q, right) for t in ("qti21", "moodle", "canvas")] == [1.0, 1.0, 1.0], q.id
        assert [built.score(t, q, wrong) for t in ("qti21", "moodle", "canvas")] == [0.0, 0.0, 0.0], q.id


def test_a_markdown_list_indented_under_a_question_stays_its_text(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n1. Which statement is true?\n\n   - ① the first\n   - ② the second\n\nA) ① only\nB) ② only\n\nAnswer: A\n"
    path = tmp_path / "list.md"
    path.write_text(text, encoding="utf-8")
    (q,) = read_clean(path).iter_questions()
    assert q.stem == "Which statement is true?\n\n- ① the first\n- ② the second"
    assert [c.text for c in q.choices] == ["① only", "② only"]
    assert check_source(tmp_path, "again.md", text)[0] == 0
