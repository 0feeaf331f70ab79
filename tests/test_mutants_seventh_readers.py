"""Reader behaviour the seventh session's sampled mutation run found untested (issue 35): each
test states what an author sees, counted from the text written here."""

from __future__ import annotations

from helpers.cli import check_source

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz


def test_a_section_after_a_mid_paper_key_is_read_as_the_papers_section(tmp_path):
    # A key after the first section, then the next section with short questions: its heading
    # names no section read, so it ends the key and starts the section (never a part of the key
    # whose "1. 수도?" would be an entry).
    text = ("---\ntitle: 시험\n---\n\n## 객관식\n\n1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n[정답]\n1. ②\n\n"
            "## 단답형\n\n1. 수도?\n정답: 서울\n")
    (tmp_path / "paper.md").write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(tmp_path / "paper.md", sink)
    assert read is not None and not sink.items, [d.render() for d in sink.items]
    quiz, _ = read
    assert [(s.title, [q.stem for q in s.questions]) for s in quiz.sections] == [
        ("객관식", ["물의 끓는점은?"]), ("단답형", ["수도?"])]


def test_a_structure_line_after_an_answer_says_how_to_write_it(tmp_path):
    text = ("---\ntitle: T\n---\n\n1. Which is a gas?\nA) Oxygen\nB) Iron\nAnswer: A\nAnswer Key\n\n"
            "2. Which is a metal?\nA) Oxygen\nB) Iron\nAnswer: B\n")
    code, reported = check_source(tmp_path, "quiz.md", text, "--lang", "en")
    (problem,) = [r for r in reported if r.code == "QB154"]
    assert problem.hint == ("if it belongs to that block, indent it by a few spaces; if it is the paper's structure, write "
                            "it as one of the forms in docs/source-format.md (a section heading such as 'Ⅱ. 단답형' or "
                            "'Part II. Short answer', a question '3. ...')")


def test_a_bonus_questions_points_attribute_is_its_points(tmp_path):
    # "Bonus (2 points)" states its points; a {points=3} the author added says otherwise, and is
    # what the question is worth (the attribute is the source's own way to set them).
    text = ("---\ntitle: T\n---\n\n1. Which is a gas?\nA) Oxygen\nB) Iron\nAnswer: A\n\n"
            "Bonus (2 points): Which is a metal? {points=3}\nA) Oxygen\nB) Iron\nAnswer: B\n")
    (tmp_path / "bonus.md").write_text(text, encoding="utf-8")
    sink = DiagnosticSink()
    read = read_quiz(tmp_path / "bonus.md", sink)
    assert read is not None and not sink.items, [d.render() for d in sink.items]
    assert [q.points for q in read[0].iter_questions()] == [1, 3]


# -- YAML (readers/yaml_data.py) --------------------------------------------------------------------


def _load(text: str, limits=None, monkeypatch=None):
    from qti_builder.limits import Limits
    from qti_builder.readers.source_map import SourceMap
    from qti_builder.readers.yaml_data import load_yaml

    sink = DiagnosticSink()
    data = load_yaml(text, SourceMap("q.yaml"), sink, limits=limits or Limits())
    return data, [(d.code, d.message, d.hint) for d in sink.items]


def test_nesting_up_to_the_limit_is_read_and_one_level_more_refused():
    from qti_builder.limits import Limits

    four = "a:\n  b:\n    c: 1\n"  # a mapping in a mapping in a mapping, its value a fourth level
    data, problems = _load(four, Limits(max_yaml_depth=4))
    assert data == {"a": {"b": {"c": 1}}} and problems == []
    data, problems = _load(four, Limits(max_yaml_depth=3))
    assert data is None and [(c, m) for c, m, _ in problems] == [("QB114", "the YAML nests more than the 3 levels a source may have")]


def test_nesting_past_the_stack_is_a_located_error_naming_the_option():
    # On a small stack, nesting the option allows can exhaust it before the limit: an error that
    # says which option lowers the limit, never a traceback.
    import sys

    from qti_builder.limits import Limits

    old = sys.getrecursionlimit()
    sys.setrecursionlimit(300)
    try:
        data, problems = _load("[" * 200 + "]" * 200, Limits(max_yaml_depth=250))
    finally:
        sys.setrecursionlimit(old)
    assert data is None
    (code, message, hint), = problems
    assert (code, message) == ("QB114", "the YAML is nested too deeply for the reader")
    assert hint == "a quiz needs a few levels of nesting, not hundreds; lower --max-yaml-depth"


def test_a_character_yaml_refuses_is_a_syntax_error_without_libyaml_too(monkeypatch):
    # PyYAML built without libyaml (no C parser): its own loader refuses the text as it is made.
    from qti_builder.readers import yaml_data

    monkeypatch.setattr(yaml_data, "_FastLoader", None)
    data, problems = _load("title: a\x01b\n")
    assert data is None and [(c, m) for c, m, _ in problems] == [("QB111", "YAML syntax error: YAML cannot read character U+0001")]


def test_a_bound_and_a_truth_value_are_said_with_their_values(tmp_path):
    mr = ("title: T\nsections:\n- id: s\n  title: S\n  shuffle: maybe\n  questions:\n  - type: multiple_response\n"
          "    id: m\n    stem: Which?\n    scoring: exam\n    incomplete_points: 0\n    choices:\n"
          "    - {id: A, text: a, correct: true}\n    - {id: B, text: b, correct: true}\n    - {id: C, text: c}\n")
    code, reported = check_source(tmp_path, "m.yaml", mr, "--lang", "en")
    assert code == 1
    said = {(r.line, r.message, r.hint) for r in reported}
    assert (5, "'shuffle' in section 's' must be true or false, not 'maybe'", "write 'shuffle: true' or 'shuffle: false'") in said
    assert (11, "'incomplete_points' in multiple_response question 'm' must be more than 0, not the number 0",
            "write a number more than 0") in said
