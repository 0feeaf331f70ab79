"""What the Markdown reader makes of a source, and what it tells the author, found untested by issue
35's sampled mutation run (the eighth session's look at the seventh's survivors). Each source is
written here by hand, each place counted from the text written here, each expected value written
out; diagnostics are compared as ``qti-builder check`` prints them.

They kill, in readers/markdown/: ``QuestionBuilder.__init__`` 15, ``_attribute_like_answers`` 33
and 82, ``_infer`` 58, ``_untyped_error`` 71, ``_letters`` 60; ``keys.apply`` 24, 51 and 71,
``keys._answer`` 30 and 56, ``keys.key_answer`` 3; ``syntax.key_entries`` 9, ``option_refs`` 32, 35,
135, 142 and 167, ``in_style`` 1 and 26, ``names_option`` 42, ``heading_reading`` 164,
``section_marker`` 49, ``take_points`` 30; ``Scanner._outside_question`` 57; ``pieces.put_together`` 51, 60
and 61.
"""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest
from helpers import write
from helpers.cli import run

from qti_builder.diagnostics import DiagnosticSink
from qti_builder.readers import read_quiz


def checked(tmp_path: Path, text: str, name: str = "paper.md") -> tuple[int, list[str]]:
    """``qti-builder check`` on the source: its exit code and what it printed, line by line."""
    write(tmp_path, name, text)
    code, _, err = run("check", name, "-j", "1", "--lang", "en", cwd=tmp_path)
    return code, err.splitlines()


def at(text: str, words: str, after: str = "") -> str:
    """'line:column' of the first ``words`` written after ``after``, by searching the text."""
    offset = text.index(words, text.index(after) if after else 0)
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - (text.rfind(chr(10), 0, offset) + 1) + 1}"


def line_of(text: str, whole_line: str, nth: int = 1) -> int:
    """The number of the ``nth`` line that reads ``whole_line``."""
    lines = text.split("\n")
    found = [i + 1 for i, line in enumerate(lines) if line == whole_line]
    return found[nth - 1]


def read(tmp_path: Path, text: str, name: str = "paper.md"):  # type: ignore[no-untyped-def]
    path = write(tmp_path, name, text)
    sink = DiagnosticSink()
    result = read_quiz(path, sink)
    assert result is not None and not sink.items, [d.render() for d in sink.items]
    return result[0]


# -- true/false in the quiz's language ------------------------------------------------------------------


def test_a_dutch_quiz_reads_its_own_false_word(tmp_path: Path) -> None:
    # "Onwaar" is the false label of a quiz in Dutch (the words students see); no language's
    # list of answer words has it, so only the quiz's own label says it means false.
    text = ("---\ntitle: T\nlanguage: nl\n---\n\n1. De aarde is plat. {#q1 type=true_false}\n\nAnswer: Onwaar\n\n"
            "2. De zon is een ster. {#q2 type=true_false}\n\nAnswer: Waar\n")
    quiz = read(tmp_path, text)
    assert [(q.id, q.answer) for q in quiz.iter_questions()] == [("q1", False), ("q2", True)]


# -- attributes written on an answer line ----------------------------------------------------------------

BRACES = """---
title: T
---

1. Capital of France? {#q1 type=short_answer}

Answer: Paris {fixed}

2. Which function? {#f type=short_answer}

Answer: int {score=50}
"""


def test_attributes_on_answer_lines_are_errors_that_say_how_to_keep_the_braces(tmp_path: Path) -> None:
    # '{fixed}', an option's attribute written bare, is one too (not only 'name=value' ones).
    code, err = checked(tmp_path, BRACES)
    assert code == 1 and err == [
        f"paper.md:{at(BRACES, '{fixed}')}: error[QB183]: '{{fixed}}' looks like attributes, but on an answer line it "
        "would be part of the answer",
        "    hint: attributes go at the end of the question line; to keep the braces, write '\\{'",
        f"paper.md:{at(BRACES, '{score=50}')}: error[QB183]: '{{score=50}}' looks like attributes, but on an answer line "
        "it would be part of the answer",
        "    hint: a score goes in the label: 'Answer (50%): int'; to keep the braces, write '\\{'",
        "failed: 2 errors",
    ]


# -- a question without options or type ---------------------------------------------------------------------


def test_two_answers_without_a_type_are_one_essays_too_many(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n\n1. Name a primary colour. {#q1}\n\nAnswer: red\nAnswer: blue\n"
    code, err = checked(tmp_path, text)
    assert code == 1 and err == [
        f"paper.md:{line_of(text, 'Answer: blue')}:1: error[QB116]: a second answer in an essay question, which takes one",
        "    hint: keep one 'Answer:' line; several are for {type=short_answer} and {type=numerical}; if a new question "
        "starts above this line, number it",
        "failed: 1 error",
    ]


def test_an_answer_among_listed_items_says_how_to_make_them_options(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n\n1. Which keyword defines a function? {#def}\n\n- func\n- def\n\nAnswer: def\n"
    code, err = checked(tmp_path, text)
    assert code == 1 and err == [
        f"paper.md:{at(text, 'def', 'Answer:')}: error[QB173]: the answer 'def' is one of the items listed in the "
        "question, but they are not options, so the question's type is not clear",
        "    hint: write each option at the left margin as 'A) text' and give its letter: 'Answer: B'; to keep an essay "
        "with this model answer, add {type=essay}",
        "failed: 1 error",
    ]


def test_an_answer_whose_text_is_not_its_options_is_a_warning_in_words(tmp_path: Path) -> None:
    text = "---\ntitle: T\n---\n\n1. Capital of France? {#q1}\n\nA) Paris\nB) Lyon\n\nAnswer: A) Lyon\n"
    code, err = checked(tmp_path, text)
    assert code == 0 and err[:2] == [
        f"paper.md:{at(text, 'A) Lyon')}: warning[QB124]: the answer's text differs from option A",
        "    hint: copy the option's text, or give only its marker",
    ]


# -- answer keys ----------------------------------------------------------------------------------------------

PARTS = """---
title: T
---

## Part A

1. Which is prime?
1) four
2) seven

{second_a}. Which is even?
1) three
2) eight

## Part B

1. Which is odd?
1) two
2) three

2. Which is a square?
1) four
2) five

1. 2
2. 1

## Part A

{entries}
"""


def test_a_part_of_an_untitled_key_names_the_options_its_questions_have(tmp_path: Path) -> None:
    # Under the last question, "1. 2" and "2. 1" are an untitled key (each answer names an
    # option); the part "## Part A" below it goes on with entries for Part A, whose "7" names
    # no option of its question: an error at the entry, never an answer taken.
    text = PARTS.format(second_a="2", entries="1. 2\n2. 7")
    code, err = checked(tmp_path, text)
    assert code == 1 and err == [
        f"paper.md:{line_of(text, '2. Which is even?')}:1: error[QB120]: the question has options but no correct answer",
        "    hint: add a line 'Answer: 2' at the left margin after the options",
        f"paper.md:{at(text, '7', chr(10) + '2. 7')}: error[QB187]: the answer key gives "
        "question 2 the answer '7', but its options are 1 to 2",
        "    hint: name the question's options as it numbers them, and number the key as the questions are numbered",
        "failed: 2 errors",
    ]


def test_a_key_parts_entries_numbered_twice_or_never_in_its_section(tmp_path: Path) -> None:
    # Part A numbers two questions 1 (and none 3): each entry of its part is an error saying which.
    text = PARTS.format(second_a="1", entries="1. 2\n3. 1")
    code, err = checked(tmp_path, text)
    part = line_of(text, "## Part A", 2)
    hint = ("    hint: number the part's entries as its section numbers its questions, or put the entry under the part "
            "named for its question's section")
    assert code == 1 and err == [
        f"paper.md:{line_of(text, '1. Which is prime?')}:1: error[QB120]: the question has options but no correct answer",
        "    hint: add a line 'Answer: 2' at the left margin after the options",
        f"paper.md:{line_of(text, '1. Which is even?')}:1: error[QB120]: the question has options but no correct answer",
        "    hint: add a line 'Answer: 2' at the left margin after the options",
        f"paper.md:{line_of(text, '1. 2', 2)}:{len('1. ') + 1}: error[QB187]: the answer key's part 'Part A' on line {part} answers the "
        "section 'Part A', which numbers 2 questions 1",
        hint,
        f"paper.md:{line_of(text, '3. 1')}:{len('3. ') + 1}: error[QB187]: the answer key's part 'Part A' on line {part} answers the "
        "section 'Part A', which has no question 3",
        hint,
        "failed: 4 errors",
    ]


def test_a_key_in_parts_whose_entries_name_several_options(tmp_path: Path) -> None:
    # The key's title, then a part per section whose entries are "A, C": option references with
    # a space, read as a key's answers (never the end of the key, nor questions).
    text = ("---\ntitle: T\n---\n\n## Part A\n\n1. Which are prime?\nA) two\nB) four\nC) seven\n\n"
            "## Part B\n\n1. Which are even?\nA) three\nB) eight\nC) ten\n\n## Answer key\n\n## Part A\n\n1. A, C\n\n"
            "## Part B\n\n1. B, C\n")
    quiz = read(tmp_path, text)
    assert [(s.title, [(q.type, [c.text for c in q.choices if c.correct]) for q in s.questions]) for s in quiz.sections] == [
        ("Part A", [("multiple_response", ["two", "seven"])]), ("Part B", [("multiple_response", ["eight", "ten"])])]


def test_an_explanation_from_the_keys_explanations_part_is_placed_on_its_line(tmp_path: Path) -> None:
    # The explanation of question 1 is in the key's 해설 part, lines below its entry: a missing
    # picture in it is reported on the explanation's line, not the entry's.
    text = ("---\ntitle: T\nlanguage: ko\n---\n\n1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n2. 얼음이 녹는 온도는?\n① 0℃\n② 100℃\n\n"
            "[정답]\n1. ②\n2. ①\n\n해설\n1. 그림을 보라 ![끓는 물](boil.png)\n")
    code, err = checked(tmp_path, text)
    assert code == 1 and len(err) == 3 and err[2] == "failed: 1 error"
    # The column is left out: the explanations part keeps each explanation's line, not where its
    # text starts after "1. " (it counts from column 1; see the eighth session's notes).
    assert err[0].startswith(f"paper.md:{line_of(text, '1. 그림을 보라 ![끓는 물](boil.png)')}:")
    assert err[0].endswith(": error[QB160]: media file 'boil.png' does not exist")


def test_a_key_entrys_explanation_keeps_a_numbered_point_of_its_own(tmp_path: Path) -> None:
    # "2. 고도가 …" after the explanation label of entry 1 is the explanation's own point, not
    # the key's entry for question 2 (which comes on its own line).
    text = ("---\ntitle: T\nlanguage: ko\n---\n\n1. 물이 끓는 온도는?\n① 0℃\n② 100℃\n\n2. 얼음이 녹는 온도는?\n① 0℃\n② 100℃\n\n"
            "[정답]\n1. ② 해설: 1기압일 때의 값이다. 2. 고도가 높으면 낮아진다.\n2. ①\n")
    first, second = read(tmp_path, text).iter_questions()
    assert [c.text for c in first.choices if c.correct] == ["100℃"]
    assert first.feedback.general == "1기압일 때의 값이다. 2. 고도가 높으면 낮아진다."
    assert [c.text for c in second.choices if c.correct] == ["0℃"] and second.feedback.general is None


# -- option markers and the answers that name them -----------------------------------------------------------


def test_answers_name_options_in_every_marker_style(tmp_path: Path) -> None:
    # A Hangul consonant, a Roman numeral, a katakana and glued letters ("ACD", as Chinese
    # papers write several options): each names the options it says, no other.
    text = ("---\ntitle: T\nlanguage: ko\n---\n\n1. 자음?\nㄱ. 가\nㄴ. 나\nㄷ. 다\n\n정답: ㄴ\n\n"
            "2. Which is prime?\ni) four\nii) seven\niii) nine\n\nAnswer: ii\n\n"
            "3. どれ?\nア) 犬\nイ) 猫\nウ) 鳥\n\n정답: イ\n\n"
            "4. Which are even?\nA) two\nB) three\nC) four\nD) six\n\nAnswer: ACD\n")
    quiz = read(tmp_path, text)
    assert [[c.text for c in q.choices if c.correct] for q in quiz.iter_questions()] == [
        ["나"], ["seven"], ["猫"], ["two", "four", "six"]]


def test_roman_and_iroha_options_are_read_in_their_own_style(tmp_path: Path) -> None:
    # "i)" is a letter and a Roman numeral, "イ)" katakana's second and iroha's first: a first
    # option "i)" starts Roman options, a first option "イ)" the iroha order.
    text = ("---\ntitle: T\nlanguage: ja\n---\n\n1. Which is prime?\ni) four\nii) seven\niii) nine\n\nAnswer: ii\n\n"
            "2. どれが正しいか。\nイ) 犬\nロ) 猫\nハ) 鳥\n\n正解: ロ\n")
    first, second = read(tmp_path, text).iter_questions()
    assert (first.stem, [c.text for c in first.choices], [c.text for c in first.choices if c.correct]) == (
        "Which is prime?", ["four", "seven", "nine"], ["seven"])
    assert (second.stem, [c.text for c in second.choices], [c.text for c in second.choices if c.correct]) == (
        "どれが正しいか。", ["犬", "猫", "鳥"], ["猫"])


def test_answers_naming_options_of_another_style_are_errors_at_them(tmp_path: Path) -> None:
    # A Roman "ii" to lettered options, a "2" to lettered ones, a "B" to Roman ones: each an
    # error naming the option by its own marker.
    text = ("---\ntitle: T\n---\n\n1. Which is prime?\na) four\nb) seven\nc) nine\n\nAnswer: ii\n\n"
            "2. Which is even?\nA) three\nB) eight\n\nAnswer: 2\n\n3. Which is odd?\ni) four\nii) seven\n\nAnswer: b\n")
    code, err = checked(tmp_path, text)
    assert code == 1 and err == [
        f"paper.md:{at(text, 'ii', 'Answer: ii')}: error[QB126]: the answer names option ii, but the question's options "
        "are marked A, B, C",
        "    hint: name the option by its own marker: 'Answer: B'",
        f"paper.md:{at(text, '2', 'Answer: 2')}: error[QB126]: the answer names option 2, but the question's options "
        "are marked A, B",
        "    hint: name the option by its own marker: 'Answer: B'",
        f"paper.md:{at(text, 'b', 'Answer: b')}: error[QB126]: the answer names option B, but the question's options "
        "are marked i, ii",
        "    hint: name the option by its own marker: 'Answer: ii'",
        "failed: 3 errors",
    ]


# -- headings, sections and points -----------------------------------------------------------------------------


def test_a_heading_questions_text_is_placed_after_its_number(tmp_path: Path) -> None:
    text = ("---\ntitle: T\n---\n\n## 1. Which picture ![x](nope.png) is prime?\n1) four\n2) seven\n\nAnswer: 2\n\n"
            "## 2. Which is even?\n1) three\n2) eight\n\nAnswer: 2\n")
    code, err = checked(tmp_path, text)
    assert code == 1 and err == [
        f"paper.md:{at(text, 'nope.png')}: error[QB160]: media file 'nope.png' does not exist",
        "    hint: put media next to the source (or below it) and refer to it by a relative path",
        "failed: 1 error",
    ]


def test_a_bracketed_section_line_with_words_after_it(tmp_path: Path) -> None:
    text = "---\ntitle: T\nlanguage: ko\n---\n\n[객관식] 각 2점\n\n1. 물의 끓는점은?\n① 0℃\n② 100℃\n\n정답: ②\n"
    quiz = read(tmp_path, text)
    assert [(s.title, [(q.stem, [c.text for c in q.choices if c.correct]) for q in s.questions]) for s in quiz.sections] == [
        ("객관식 각 2점", [("물의 끓는점은?", ["100℃"])])]


def test_points_at_the_start_of_a_one_line_question_are_its_points(tmp_path: Path) -> None:
    text = "---\ntitle: T\nlanguage: zh\n---\n\n1. （10分）下列哪个是质数？\nA. 4\nB. 7\n\n答案：B\n"
    (question,) = read(tmp_path, text).iter_questions()
    assert (question.stem, question.points, [c.text for c in question.choices if c.correct]) == ("下列哪个是质数？", 10, ["7"])


# -- a question that lost its number in a passage ---------------------------------------------------------------


def test_a_question_without_its_number_in_a_passage_leaves_the_passage(tmp_path: Path) -> None:
    # Its lines are the question's (reported, QB147), not the passage's as well: the next
    # question's passage does not carry its option's picture (which would be checked there).
    text = ("---\ntitle: T\n---\n\n1. Which is a metal?\nA) Oxygen\nB) Iron\n\nAnswer: B\n\n[2~3] A passage about gases.\n\n"
            "Which is a noble gas?\nA) Neon ![n](neon.png)\nB) Iron\nAnswer: A\n\n3. Which is heavy?\nA) Lead\nB) Helium\n\n"
            "Answer: A\n")
    code, err = checked(tmp_path, text)
    assert code == 1 and err == [
        f"paper.md:{line_of(text, 'Which is a noble gas?')}:1: error[QB147]: this paragraph looks like a question: number it '2.'",
        "    hint: a question starts at the left margin with its number, '2. Which is a noble gas?'; without one, the text "
        "is read as part of the shared passage",
        "failed: 1 error",
    ]


# -- a source read in pieces, some taken from the cache ----------------------------------------------------------


class _Store:
    """A cache of the reader's pieces in memory, each pickled as the build cache keeps them."""

    def __init__(self) -> None:
        self.entries: dict[str, bytes] = {}

    def pieces(self):  # type: ignore[no-untyped-def]
        from qti_builder.readers.piece_cache import Pieces

        return Pieces(lambda key: pickle.loads(self.entries[key]) if key in self.entries else None,
                      lambda key, reading: self.entries.__setitem__(key, pickle.dumps(reading)),
                      lambda tasks, work: [work(t) for t in tasks])


@pytest.fixture
def in_pieces(monkeypatch: pytest.MonkeyPatch) -> _Store:
    """Every source read in pieces (not only those of a thousand lines), kept in one cache."""
    from qti_builder.readers.markdown import pieces

    monkeypatch.setattr(pieces, "PIECES_FROM", 0)
    monkeypatch.setattr(pieces, "RUN_FROM", 0)
    return _Store()


def test_a_piece_from_the_cache_read_for_another_file_names_that_file(tmp_path: Path, in_pieces: _Store,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    # The same text in a.md and b.md: b.md's pieces are a.md's, from the cache (a piece's key is
    # its text); their warnings name b.md, the file being read.
    text = ("---\ntitle: T\n---\n\n# One\n\n1. Which?\n\nA) Paris\nB) Lyon\n\nAnswer: A) Lyon\n\n"
            "# Two\n\n2. Which?\n\nA) Paris\nB) Lyon\n\nAnswer: B) Paris\n")
    monkeypatch.chdir(tmp_path)  # each file named as the user names it
    for name in ("a.md", "b.md"):
        sink = DiagnosticSink()
        write(tmp_path, name, text)
        assert read_quiz(Path(name), sink, pieces=in_pieces.pieces()) is not None
        assert [d.render().split("\n")[0] for d in sink.items] == [
            f"{name}:{at(text, 'A) Lyon', 'Answer:')}: warning[QB124]: the answer's text differs from option A",
            f"{name}:{at(text, 'B) Paris', 'Answer: A) Lyon')}: warning[QB124]: the answer's text differs from option B"]


def test_a_piece_from_the_cache_at_another_section_places_its_texts(tmp_path: Path, in_pieces: _Store) -> None:
    # A section added before the others: each piece after it is taken from the cache as the
    # next section. A picture on a question's second line is placed where it is written (the
    # build's checks say where a missing one is through SourceMap.text_position).
    def part(title: str) -> str:
        return f"# {title}\n\n1. Which one?\n\n   See ![p](pic.png)\n\nA) Paris\nB) Lyon\n\nAnswer: A\n\n"

    path = write(tmp_path, "parts.md", "---\ntitle: T\n---\n\n" + part("One") + part("Two") + part("Three"))
    assert read_quiz(path, DiagnosticSink(), pieces=in_pieces.pieces()) is not None
    text = "---\ntitle: T\n---\n\n" + part("Zero") + part("One") + part("Two") + part("Three")
    path.write_text(text, encoding="utf-8")
    read = read_quiz(path, DiagnosticSink(), pieces=in_pieces.pieces())
    assert read is not None
    quiz, source = read
    last = quiz.sections[3].questions[0]
    span = source.text_position(("sections", 3, "questions", 0, "stem"), last.stem, last.stem.index("pic.png"))
    line, column = at(text, "pic.png", "# Three").split(":")
    assert (span.line, span.column) == (int(line), int(column))
