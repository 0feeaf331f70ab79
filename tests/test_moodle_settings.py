"""Every per-question setting of the Moodle XML, for every question of every kind, as the source
means it and as Moodle's importer reads it (tests/helpers/moodle_engine.py reads the file the way
qformat_xml does).

The expectations are written here from the model and docs/question-types.md, question by
question: whether Moodle shuffles the answers (a ``shuffle: false`` question must keep its order),
one or several answers, the numbering, the penalty for a wrong try, no hints, case sensitivity,
units, the essay's response settings, the ordering question's grading; and for a cloze question the
same of each embedded answer.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import ROOT, write
from helpers.moodle_engine import extract_cloze, read_question
from helpers.text import html_text
from lxml import etree

from qti_builder import BuildOptions, build
from qti_builder.content import render_html
from qti_builder.diagnostics import DiagnosticSink
from qti_builder.model import Quiz
from qti_builder.model.questions import BLANK_MARKER
from qti_builder.model.union import Question
from qti_builder.readers import read_quiz

#: Each kind both ways where the author chooses: shuffled and not, case sensitive and not.
BOTH_WAYS = """---
title: Both ways
---
# Both ways {#both}

Each kind both ways, where the **author** chooses.

1. Pick one. {#one-fixed shuffle=false}

A) a
B) b

Answer: A

2. Pick one. {#one-shuffled shuffle=true}

A) a
B) b

Answer: B

3. Pick any. {#any-fixed type=multiple_response shuffle=false}

A) a
B) b
C) c

Answer: A, B

4. Match. {#match-fixed type=matching shuffle=false}

- cat -> mammal
- eagle -> bird

5. Match. {#match-shuffled type=matching}

- cat -> mammal
- eagle -> bird

6. Name it. {#name-case type=short_answer case_sensitive=true}

Answer: DNA

7. Name it. {#name-any-case type=short_answer}

Answer: dna

8. The [[Sun]] is [[*hot | cold]]. {#blanks-case type=fill_in_blank case_sensitive=true points=2}

9. A [[b]] and a [[c]]. {#blanks-half type=fill_in_blank points=1}

10. A [[b]] and a [[c]]. {#blanks-three type=fill_in_blank points=6}

11. A [[b]] and a [[c]]. {#blanks-one-and-a-half type=fill_in_blank points=3}

12. Match the long answers. {#match-long type=matching}

- short -> An answer far longer than a question bank name may be, which must reach the student whole, every word of it
- other -> Another answer far longer than a question bank name may be, which must reach the student whole as well

13. Read this. {#note type=text_only}
"""

SOURCES = sorted([*ROOT.glob("source/*.md"), *ROOT.glob("tests/fixtures/*.yaml"), *ROOT.glob("tests/fixtures/*.md"),
                  *ROOT.glob("starter/quiz/*.md")])
#: Sources written to be refused by Moodle (tests/test_moodle_types.py checks the refusals).
REFUSED = {ROOT / "tests/fixtures/moodle-limits.yaml"}

#: Moodle's default penalty per wrong try (qtype forms' default 0.3333333); true/false's form fixes
#: it at 1 (a second try is a sure win); a description has none.
PENALTY = {"true_false": 1.0, "text_only": 0.0}
#: The Moodle type each kind becomes (docs/question-types.md); a true/false question with labels of
#: its own (O/X) becomes a multichoice (:func:`moodle_type`).
MOODLE_TYPE = {"single_choice": "multichoice", "multiple_response": "multichoice", "true_false": "truefalse",
               "short_answer": "shortanswer", "numerical": "numerical", "essay": "essay", "file_upload": "essay",
               "matching": "matching", "ordering": "ordering", "fill_in_blank": "cloze", "calculated": "calculated",
               "calculated_choice": "calculatedmulti", "text_only": "description"}
#: Moodle's answernumbering for each numbering of the source's options (docs/question-types.md,
#: "Option numbering"; Moodle has no Hangul or Katakana numbering).
ANSWERNUMBERING = {None: "ABCD", "upper-alpha": "ABCD", "lower-alpha": "abc", "lower-roman": "iii", "decimal": "123",
                   "parenthesized-decimal": "123", "circled-decimal": "123", "hangul": "123", "hangul-consonant": "123",
                   "katakana": "123", "iroha": "123"}


def moodle_type(q: Question) -> str:
    return "multichoice" if q.type == "true_false" and q.labels else MOODLE_TYPE[q.type]


def expected_fields(q: Question) -> dict[str, str]:
    """The settings Moodle must read from the file, as the fields' text (Moodle's own spelling)."""
    kind = q.type
    if kind in ("single_choice", "multiple_response"):
        return {"single": "true" if kind == "single_choice" else "false", "shuffleanswers": str(q.shuffle).lower(),
                "answernumbering": ANSWERNUMBERING[q.numbering], "showstandardinstruction": "0" if kind == "single_choice" else "1"}
    if kind == "true_false" and q.labels:  # the two labels in order, unnumbered, one answer
        return {"single": "true", "shuffleanswers": "false", "answernumbering": "none"}
    if kind == "calculated":
        # tolerancetype 1 relative (a fraction of the answer), 2 nominal; the answer shown with
        # decimals (correctanswerformat 1) or significant figures (2); the unit optional.
        form, length = q.display
        return {"answer/tolerance": f"{q.tolerance / 100 if q.tolerance_mode == 'percent' else q.tolerance:g}",
                "answer/tolerancetype": "1" if q.tolerance_mode == "percent" else "2",
                "answer/correctanswerformat": "1" if form == "decimals" else "2", "answer/correctanswerlength": str(length),
                "unitgradingtype": "0", "units/unit/unit_name": q.unit or ""}
    if kind == "calculated_choice":
        return {"single": "true", "shuffleanswers": str(q.shuffle).lower(), "answernumbering": ANSWERNUMBERING[q.numbering]}
    if kind == "matching":
        return {"shuffleanswers": str(q.shuffle).lower()}
    if kind == "short_answer":
        return {"usecase": "1" if q.case_sensitive else "0"}
    if kind == "numerical":
        # The unit, when there is one, is optional; without one no unit field is shown.
        return {"unitgradingtype": "0", "showunits": "0" if q.unit else "3", "unitsleft": "0",
                "units/unit/unit_name": q.unit or "", "units/unit/multiplier": "1" if q.unit else ""}
    if kind == "essay":
        return {"maxbytes": "0", "responseformat": q.response_format, "responserequired": "1", "responsefieldlines": str(q.expected_lines),
                "minwordlimit": str(q.min_words or ""), "maxwordlimit": str(q.max_words or ""),
                "attachments": str(q.attachments), "attachmentsrequired": "0"}
    if kind == "file_upload":
        # maxbytes 0: the course's upload limit, not a limit of the question's own.
        return {"maxbytes": "0", "responseformat": "noinline", "responserequired": "0", "attachments": str(q.max_files),
                "attachmentsrequired": "1", "filetypeslist": ",".join(q.allowed_types)}
    if kind == "ordering":
        # All or nothing, as the QTI item scores it; every item shown, one under the other.
        return {"layouttype": "VERTICAL", "selecttype": "ALL", "selectcount": str(len(q.items)),
                "gradingtype": "ALL_OR_NOTHING", "shownumcorrect": "1"}
    if kind == "text_only":
        return {"defaultgrade": "0"}  # shown, not answered
    return {}


def quizzes(tmp_path: Path) -> list[tuple[Quiz, etree._Element]]:
    sources = [*SOURCES, write(tmp_path, "both-ways.md", BOTH_WAYS)]
    out = []
    for source in (s for s in sources if s not in REFUSED):  # one build each: the starter quizzes share their id
        build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
        result = read_quiz(source, DiagnosticSink())
        assert result is not None
        quiz = result[0]
        out.append((quiz, etree.parse(str(tmp_path / "dist" / f"{quiz.id}.moodle.xml")).getroot()))
    return out


@pytest.fixture
def built(tmp_path: Path) -> list[tuple[Quiz, etree._Element]]:
    """Built again for each test (a second or two): mutmut picks the tests to run against a
    mutated function by the functions each test calls, and counts a module fixture's calls for
    the first test only."""
    return quizzes(tmp_path)


def test_the_sources_have_every_kind_and_both_ways(built: list[tuple[Quiz, etree._Element]]) -> None:
    questions = [q for quiz, _ in built for q in quiz.iter_questions()]
    assert {q.type for q in questions} == set(MOODLE_TYPE)
    for kind in ("single_choice", "multiple_response", "matching"):
        assert {q.shuffle for q in questions if q.type == kind} == {True, False}, kind
    for kind in ("short_answer", "fill_in_blank"):
        assert {q.case_sensitive for q in questions if q.type == kind} == {True, False}, kind


def test_every_setting_of_every_question(built: list[tuple[Quiz, etree._Element]]) -> None:
    wrong = []
    for quiz, moodle in built:
        elements = {m.findtext("idnumber"): m for m in moodle.findall("question") if m.get("type") != "category"}
        for q in quiz.iter_questions():
            element = elements[q.id]
            read = read_question(element)
            found = {"type": element.get("type"), "penalty": read.penalty, "hints": read.hints, "hidden": element.findtext("hidden")}
            meant = {"type": moodle_type(q), "penalty": PENALTY.get(q.type, 0.3333333), "hints": 0, "hidden": "0"}
            for path, value in expected_fields(q).items():
                found[path], meant[path] = (element.findtext(path) or "").strip(), value
            if q.type in ("single_choice", "multiple_response", "matching"):
                found["shuffled by Moodle"], meant["shuffled by Moodle"] = read.shuffleanswers, q.shuffle
            if q.type in ("single_choice", "multiple_response"):
                found["one answer"], meant["one answer"] = read.single, q.type == "single_choice"
            if q.type == "short_answer":
                found["case matters"], meant["case matters"] = read.usecase, q.case_sensitive
            wrong += [f"{quiz.id}.{q.id} ({q.type}): {name} is {found[name]!r} in Moodle, the source means {meant[name]!r}"
                      for name in meant if found[name] != meant[name]]
    assert wrong == []


def test_every_text_is_html_and_every_plain_answer_plain(built: list[tuple[Quiz, etree._Element]]) -> None:
    """Rich text is written as HTML, and Moodle must be told so: as "Moodle auto-format" it would
    add a line break at every newline of the HTML and show the editor in another format. Answers
    Moodle compares as text (short answer, numerical, true/false) are plain, as Moodle's export
    writes them."""
    wrong = []
    for quiz, moodle in built:
        for element in moodle.iter():
            if element.get("format") is None:
                continue
            question = next(a for a in element.iterancestors() if a.tag == "question") if element.tag != "question" else element
            plain = element.tag == "answer" and question.get("type") in ("shortanswer", "numerical", "truefalse")
            meant = "moodle_auto_format" if plain else "html"
            if element.get("format") != meant:
                wrong.append(f"{quiz.id}: <{element.tag} format={element.get('format')!r}> in a {question.get('type')} question")
    assert wrong == []


def test_every_category_as_the_quiz_and_its_sections(built: list[tuple[Quiz, etree._Element]]) -> None:
    """The question bank's categories: the quiz's, then each section's below it, each with its
    description (shown on the category in Moodle's question bank) and an ID number."""
    for quiz, moodle in built:
        categories = [(c.findtext("category/text"), html_text(c.findtext("info/text")), c.findtext("idnumber"))
                      for c in moodle.findall("question[@type='category']")]
        top = f"$course$/top/{' '.join(quiz.title.split()).replace('/', '//')}"
        meant = [(top, plain(quiz.description), quiz.id)]
        for ancestors, section in quiz.iter_sections():
            path = "/".join(" ".join(t.split()).replace("/", "//") for t in [*(a.title for a in ancestors), section.title])
            meant.append((f"{top}/{path}", plain(section.description), f"{quiz.id}.{section.id}"))
        assert categories == meant


def plain(markdown: str | None) -> str:
    return html_text(render_html(markdown)) if markdown else ""


def test_every_embedded_answer_of_every_cloze_question(built: list[tuple[Quiz, etree._Element]]) -> None:
    """Each blank as Moodle reads it: its type (a text blank case sensitive as the question says;
    a drop-down shuffled, since its right answer is written first), its weight, its answers."""
    seen = 0
    for quiz, moodle in built:
        elements = {m.findtext("idnumber"): m for m in moodle.findall("question")}
        for q in (q for q in quiz.iter_questions() if q.type == "fill_in_blank"):
            subs = extract_cloze(elements[q.id].findtext("questiontext/text"))
            by_id = {b.id: b for b in q.blanks}
            blanks = [by_id[i] for i in BLANK_MARKER.findall(q.stem)]
            assert len(subs) == len(blanks), q.id
            # A blank's own whole points are its weight; else the points shared equally, in the
            # whole numbers Moodle takes (1 each when they do not divide into whole numbers:
            # QB323 says so at build time).
            share = q.points / len(blanks)
            if all(b.points is not None and b.points == int(b.points) for b in blanks):
                assert [s.mark for s in subs] == [b.points for b in blanks], q.id
            else:
                assert [s.mark for s in subs] == [float(int(share)) if share >= 1 and share == int(share) else 1.0] * len(subs), q.id
            for sub, blank in zip(subs, blanks):
                if blank.kind == "text":
                    assert (sub.qtype, sub.usecase) == ("shortanswer", q.case_sensitive), (q.id, blank.id)
                    assert [(a.text, a.fraction) for a in sub.answers] == [(a, 1.0) for a in blank.answers], (q.id, blank.id)
                else:
                    assert (sub.qtype, sub.single, sub.shuffleanswers, sub.layout) == ("multichoice", True, True, "dropdown")
                    assert [(a.text, a.fraction) for a in sub.answers] == (
                        [(a, 1.0) for a in blank.answers] + [(o, 0.0) for o in blank.options]), (q.id, blank.id)
                seen += 1
    assert seen >= 4


def test_long_matching_answers_reach_moodle_whole(built: list[tuple[Quiz, etree._Element]]) -> None:
    quiz, moodle = next((quiz, moodle) for quiz, moodle in built if quiz.id == "both-ways")
    question = next(q for q in quiz.iter_questions() if q.id == "match-long")
    element = next(m for m in moodle.findall("question") if m.findtext("idnumber") == "match-long")
    assert [sub.findtext("answer/text") for sub in element.findall("subquestion")] == [p.answer for p in question.pairs]


def test_a_cloze_question_shows_its_image(tmp_path: Path) -> None:
    """A picture in a cloze question's text is carried in the file (@@PLUGINFILE@@ and its
    <file>), as in every other type, so Moodle shows it."""
    media = tmp_path / "media"
    media.mkdir()
    (media / "workers.png").write_bytes((ROOT / "source" / "media" / "workers.png").read_bytes())
    source = write(tmp_path, "cloze-image.md", "---\ntitle: Cloze image\n---\n"
                   "1. ![Three boxes](media/workers.png) There are [[3]] workers. {#count type=fill_in_blank}\n")
    build(BuildOptions(sources=[source], out_dir=tmp_path / "dist", formats=["moodle"]))
    question = etree.parse(str(tmp_path / "dist" / "cloze-image.moodle.xml")).find("question[@type='cloze']")
    (name,) = [f.get("name") for f in question.findall("questiontext/file")]  # the media file, named by its content
    assert name.startswith("workers") and name.endswith(".png")
    assert f'<img src="@@PLUGINFILE@@/{name}" alt="Three boxes">' in question.findtext("questiontext/text")


def test_the_kind_table_lists_every_kind_of_the_registry() -> None:
    """A new kind (src/qti_builder/kinds.py) fails here until its Moodle type is written above."""
    from qti_builder.kinds import KINDS

    assert list(MOODLE_TYPE) == list(KINDS)
